<?php
// Steps that end in an exception (tests/e2e/test_php_step_exceptions.py).
function parse_qty($s)
{
    if (!ctype_digit($s)) {
        throw new InvalidArgumentException("not a quantity: '$s'");
    }
    return (int) $s;
}

function read_qty($s)
{
    try {
        $q = parse_qty($s);
        echo "qty=$q\n";
    } catch (InvalidArgumentException $e) {
        echo "caught: " . $e->getMessage() . "\n";
        $q = 0;
    }
    return $q;
}

if (($argv[1] ?? '') === 'uncaught') {
    parse_qty('y');
}
read_qty('x');
read_qty('z');
echo "done\n";
