// A small HTTP service for attach tests: started outside the debugger, it counts orders across
// requests and serves on a port it prints.
package main

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

var (
	mu     sync.Mutex
	orders int
)

func price(item string, qty int) int {
	unit := map[string]int{"pen": 3, "book": 12}[item]
	return unit * qty
}

func order(w http.ResponseWriter, r *http.Request) {
	item := r.URL.Query().Get("item")
	qty, _ := strconv.Atoi(r.URL.Query().Get("qty"))
	total := price(item, qty)
	mu.Lock()
	orders++
	count := orders
	mu.Unlock()
	fmt.Fprintf(w, "{\"item\": %q, \"total\": %d, \"orders\": %d}", item, total, count)
}

// hold answers after the given milliseconds: a request still in its handler when the
// program is paused.
func hold(w http.ResponseWriter, r *http.Request) {
	ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
	fmt.Println("holding")
	<-time.After(time.Duration(ms) * time.Millisecond)
	fmt.Fprint(w, "{\"held\": true}")
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Printf("listening on %d\n", ln.Addr().(*net.TCPAddr).Port)
	http.HandleFunc("/order", order)
	http.HandleFunc("/hold", hold)
	panic(http.Serve(ln, nil))
}
