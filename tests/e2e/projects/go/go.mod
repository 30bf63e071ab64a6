module example.com/gofixture

go 1.18
