#!/bin/bash
# Draws dark-page-6x6-framed.png and dark-page-6x6-open.png with ImageMagick,
# as a web app shows a 6x6: a white grid on a dark page, thin light-grey
# inner lines, black lines between its 2 x 3 boxes, and around it (`frame`)
# or not (`open`), a timer above and buttons below; the givens are
# samples/puzzles/6by6.txt. A rerun draws the same pixels (the PNG header
# carries its date); other ImageMagick versions may draw others.
#
#   tests/data/app-screens/draw-6x6.sh OUT.png frame|open
set -eu
out=$1; frame=$2
W=420; H=820; x0=30; y0=220; S=360; n=6; c=$((S/n))
args=(-size ${W}x${H} xc:'#121212' -fill '#2a2a2a' -draw "roundrectangle 30,60 390,120 10,10" -fill white -font DejaVu-Sans -pointsize 28 -draw "text 150,100 '04:12'" -fill white -draw "rectangle $x0,$y0 $((x0+S)),$((y0+S))")
# thin inner lines
args+=(-stroke '#d0d0d0' -strokewidth 1)
for i in 1 2 4 5; do p=$((x0+i*c)); args+=(-draw "line $p,$y0 $p,$((y0+S))"); done
for i in 1 3 5; do p=$((y0+i*c)); args+=(-draw "line $x0,$p $((x0+S)),$p"); done
args+=(-stroke black -strokewidth 3)
args+=(-draw "line $((x0+3*c)),$y0 $((x0+3*c)),$((y0+S))")
for i in 2 4; do p=$((y0+i*c)); args+=(-draw "line $x0,$p $((x0+S)),$p"); done
if [ "$frame" = frame ]; then args+=(-fill none -draw "rectangle $x0,$y0 $((x0+S)),$((y0+S))"); fi
args+=(-stroke none -fill black -font DejaVu-Sans-Bold -pointsize 38)
vals="$(grep -v "^#" "$(dirname "$0")/../../../samples/puzzles/6by6.txt" | tr -d "\n" | sed "s/\./0 /g; s/\([1-9]\)/\1 /g")"
k=0; for v in $vals; do r=$((k/6)); col=$((k%6)); if [ $v != 0 ]; then args+=(-draw "text $((x0+col*c+18)),$((y0+r*c+46)) '$v'"); fi; k=$((k+1)); done
for b in 0 1 2; do bx=$((30+b*125)); args+=(-fill '#2a2a2a' -draw "roundrectangle $bx,640 $((bx+110)),700 10,10" -fill white -font DejaVu-Sans -pointsize 20 -draw "text $((bx+25)),678 'Undo'"); done
convert "${args[@]}" "$out"
