// Blank lines for the breakpoint tests (test_breakpoint_moves.py): one inside f, one between f and main.
package main

import "fmt"

func f(n int) int {
	a := n + 1

	b := a * 2
	return b
}

func main() {
	r := f(3)
	if r > 100 {
		r = f(r)
	}
	fmt.Println(r)
}
