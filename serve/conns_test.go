package serve

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// At most n connections are open at once: the next waits to be accepted
// until one closes.
func TestLimitListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := LimitListener(ln, 2)
	defer l.Close()
	for range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Accept(); err != nil {
		t.Fatal(err)
	}
	third := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		third <- c
	}()
	select {
	case <-third:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(100 * time.Millisecond):
	}
	first.Close()
	first.Close() // a second Close frees nothing more
	if c := <-third; c == nil {
		t.Fatal("no third connection after the first closed")
	}
}

// A request whose body stalls is cut off at the read deadline: it holds
// no connection for ever. The server serve runs has the deadlines set.
func TestStalledBodyIsCutOff(t *testing.T) {
	hs := HTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }), context.Background())
	if hs.ReadTimeout <= 0 || hs.ReadHeaderTimeout <= 0 || hs.IdleTimeout <= 0 {
		t.Fatalf("timeouts %v %v %v: want all set", hs.ReadTimeout, hs.ReadHeaderTimeout, hs.IdleTimeout)
	}
	hs.ReadTimeout = 200 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(LimitListener(ln, MaxConnections))
	defer hs.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabcde")
	c.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := io.ReadAll(c); err != nil {
		t.Fatalf("the stalled connection was not closed: %v", err)
	}
}
