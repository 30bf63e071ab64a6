module goservice

go 1.19
