//! Small numeric helpers shared by the pixel loops.

use image::GrayImage;

/// `v.floor() as i32` (saturating, NaN to 0) without the library call that
/// `floor` is on targets without SSE 4.1: the crops' and the classifier's
/// bilinear samplers call it for every sample.
#[inline]
pub(crate) fn floor_i32(v: f32) -> i32 {
    let t = v as i32;
    // Truncation rounds negative fractions up; exact, since |t| < 2^31 and a
    // float with a fraction is below 2^23. Below i32::MIN the cast
    // saturates, and the step down must not overflow.
    if (t as f32) > v {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// The median grey level of an image (0 for an empty one).
pub(crate) fn median(img: &GrayImage) -> u8 {
    let mut levels = img.as_raw().clone();
    if levels.is_empty() {
        return 0;
    }
    let mid = levels.len() / 2;
    *levels.select_nth_unstable(mid).1
}

/// The upper median of some values (the middle one of an odd count), in
/// place; `None` for none.
pub(crate) fn median_of(values: &mut [f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    let mid = values.len() / 2;
    Some(*values.select_nth_unstable_by(mid, f32::total_cmp).1)
}

/// Bilinear grey level at an image point, which must lie within the
/// image's pixel centres (`0 <= x <= width - 1`, the same for y): the
/// callers clamp or reject points outside first.
pub(crate) fn bilinear(grey: &GrayImage, x: f32, y: f32) -> f32 {
    let (x0, y0) = (x as u32, y as u32);
    let (x1, y1) = (
        (x0 + 1).min(grey.width() - 1),
        (y0 + 1).min(grey.height() - 1),
    );
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |x, y| grey.get_pixel(x, y).0[0] as f32;
    let top = p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx;
    let bottom = p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// [`bilinear`] at any image point: `None` outside the pixel centres.
pub(crate) fn bilinear_within(grey: &GrayImage, x: f32, y: f32) -> Option<f32> {
    let (w, h) = (grey.width() as f32, grey.height() as f32);
    (x >= 0.0 && y >= 0.0 && x <= w - 1.0 && y <= h - 1.0).then(|| bilinear(grey, x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_values_is_the_middle_one() {
        assert_eq!(median_of(&mut [0.3, 0.1, 0.2]), Some(0.2));
        assert_eq!(median_of(&mut [0.4, 0.1, 0.2, 0.3]), Some(0.3));
        assert_eq!(median_of(&mut []), None);
    }

    #[test]
    fn median_is_the_middle_level() {
        let grey = GrayImage::from_raw(2, 2, vec![0, 100, 200, 40]).unwrap();
        assert_eq!(median(&grey), 100);
        let grey = GrayImage::from_raw(3, 1, vec![9, 3, 250]).unwrap();
        assert_eq!(median(&grey), 9);
        assert_eq!(median(&GrayImage::new(0, 0)), 0);
    }

    #[test]
    fn bilinear_is_exact_on_pixels_and_mixes_between_them() {
        let grey = GrayImage::from_raw(2, 2, vec![0, 100, 200, 40]).unwrap();
        assert_eq!(bilinear(&grey, 0.0, 0.0), 0.0);
        assert_eq!(bilinear(&grey, 1.0, 1.0), 40.0);
        assert_eq!(bilinear(&grey, 0.5, 0.0), 50.0);
        assert_eq!(bilinear(&grey, 0.5, 0.5), 85.0);
        assert_eq!(bilinear_within(&grey, 0.5, 0.5), Some(85.0));
        assert_eq!(bilinear_within(&grey, 1.0, 1.0), Some(40.0));
        assert_eq!(bilinear_within(&grey, 1.01, 0.5), None);
        assert_eq!(bilinear_within(&grey, -0.01, 0.5), None);
    }

    #[test]
    fn floor_i32_is_floor_as_i32() {
        let specials = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            -1.0,
            -1.5,
            1e-30,
            -1e-30,
            2147483520.0,
            -2147483648.0,
            3e9,
            -3e9,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        for v in specials {
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
        }
        for i in -200_000..200_000 {
            let v = i as f32 * 0.013;
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
        }
    }
}
