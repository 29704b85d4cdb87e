// Go's net/http at its defaults, answering "ok" and counting what it answered: requests, and the
// connections that carried them (a connection is its client's address). GET /__count reads the
// count as JSON, GET /__zero starts over; neither is counted. Usage: go-server PORT.
package main

import (
	"fmt"
	"net/http"
	"os"
	"sync"
)

func main() {
	var mu sync.Mutex
	requests := 0
	conns := map[string]bool{}
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		switch r.URL.Path {
		case "/__zero":
			requests = 0
			conns = map[string]bool{}
			fallthrough
		case "/__count":
			body := fmt.Sprintf(`{"requests":%d,"connections":%d}`, requests, len(conns))
			mu.Unlock()
			w.Write([]byte(body))
			return
		}
		requests++
		conns[r.RemoteAddr] = true
		mu.Unlock()
		w.Write([]byte("ok"))
	})
	fmt.Println("listening", os.Args[1])
	if err := http.ListenAndServe("127.0.0.1:"+os.Args[1], nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
