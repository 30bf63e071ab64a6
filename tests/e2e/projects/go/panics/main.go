// Panics for the step tests (tests/e2e/test_go_delve.py): a step over a line that panics must
// say so, recovered or not. The mode is the first argument.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func parse(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(fmt.Sprintf("bad number %q", s))
	}
	return n
}

func safeParse(s string) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	n = parse(s)
	return n, nil
}

func pick(items []int, i int) int {
	return items[i]
}

func count(words []string) map[string]int {
	var seen map[string]int
	for _, w := range words {
		seen[w]++
	}
	return seen
}

func main() {
	mode := "recovered"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	switch mode {
	case "recovered":
		n, err := safeParse("x1")
		fmt.Println("parsed", n, err)
	case "unrecovered":
		fmt.Println("parsed", parse("x2"))
	case "index":
		fmt.Println("picked", pick([]int{1, 2}, 5))
	case "nilmap":
		fmt.Println("counted", count([]string{"a"}))
	}
}
