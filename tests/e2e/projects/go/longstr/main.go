// A rendered page longer than delve's string limits (512 for rows, 4,096 for one value).
package main

import (
	"fmt"
	"strings"
)

func renderPage(rows int) string {
	var b strings.Builder
	b.WriteString("<html><body><table>")
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "<tr><td>row %04d</td><td>value</td></tr>", i)
	}
	b.WriteString("</table></body></html>")
	return b.String()
}

func main() {
	page := renderPage(150)
	fmt.Println(len(page))
}
