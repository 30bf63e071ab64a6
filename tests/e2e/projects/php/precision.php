<?php
// A program that sets its own `precision` (issue 26 review): the debugger reads floats exactly
// and the program, and what an expression evaluated in it did, print as without it.
function useTenDigits()
{
    ini_set('precision', '10');
    return 'ten';
}

ini_set('precision', '12');
$third = 1 / 3;
echo "a=" . $third . "\n";
echo "b=" . $third . "\n";
