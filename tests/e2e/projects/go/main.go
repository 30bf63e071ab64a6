package main

import (
	"fmt"

	"example.com/gofixture/calc"
)

type order struct {
	ID    int
	Items []string
}

func total(prices []int) int {
	sum := 0
	for _, p := range prices {
		sum = calc.Add(sum, p)
	}
	return sum
}

func main() {
	o := order{ID: 7, Items: []string{"tea", "cake"}}
	prices := []int{3, 4, 5}
	t := total(prices)
	fmt.Printf("order %d: %d items, total %d\n", o.ID, len(o.Items), t)
}
