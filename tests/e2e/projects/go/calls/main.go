// Recorded calls with results (tests/e2e/test_function_breakpoints.py): delve shows no
// returned value over DAP; the backend reads it from the result registers after a step out.
package main

import "fmt"

func fact(n int) int {
	if n <= 1 {
		return 1
	}
	return n * fact(n-1)
}

func sign(n int) (int8, bool) {
	if n < 0 {
		return -1, true
	}
	return 1, false
}

func label(n int) string {
	return fmt.Sprint("n=", n)
}

func half(n int) float64 {
	return float64(n) / 2
}

func main() {
	fmt.Println(fact(10))
	fmt.Println(sign(-5))
	fmt.Println(label(3))
	fmt.Println(half(3))
}
