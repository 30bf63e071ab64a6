<?php
// A rendered page longer than Xdebug's max_data (1,024 bytes) and than our row bound.
function render_page(int $rows): string
{
    $html = "<html><body><table>";
    for ($i = 0; $i < $rows; $i++) {
        $html .= sprintf("<tr><td>row %04d</td><td>value</td></tr>", $i);
    }
    $html .= "</table></body></html>";
    return $html;
}

$page = render_page(150);
// Past max_data with control characters: Xdebug sends it in a <value> element.
$doc = str_repeat("## step\n```sh\npg_isready -h db\n```\n", 40);
// More items than a listing previews (8): a list of file names, and records.
$modules = array_map(fn($i) => sprintf("assets/module-%02d.js", $i), range(1, 30));
echo strlen($page) . "\n";
