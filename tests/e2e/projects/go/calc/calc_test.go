package calc

import "testing"

func TestAdd(t *testing.T) {
	got := Add(2, 3)
	if got != 5 {
		t.Fatalf("Add(2, 3) = %d", got)
	}
}

func TestAddNegative(t *testing.T) {
	got := Add(-2, -3)
	if got != -5 {
		t.Fatalf("Add(-2, -3) = %d", got)
	}
}

func TestTable(t *testing.T) {
	cases := []struct {
		name    string
		a, b, w int
	}{
		{"small", 1, 2, 3},
		{"negative", -1, -2, -3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Add(c.a, c.b); got != c.w {
				t.Fatalf("%s: got %d", c.name, got)
			}
		})
	}
}
