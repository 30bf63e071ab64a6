<?php
// Blank lines for the breakpoint tests (test_breakpoint_moves.py): one inside f, one after it.
function f($n) {
    $a = $n + 1;

    $b = $a * 2;
    return $b;
}

$r = f(3);
if ($r > 100) {
    $r = f($r);
}
echo $r, "\n";
