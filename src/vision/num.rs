//! Small numeric helpers shared by the pixel loops.

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

#[cfg(test)]
mod tests {
    use super::*;

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
