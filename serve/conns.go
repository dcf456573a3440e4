package serve

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits of the HTTP server, so that slow or stalled clients cannot
// starve it (19,990 connections each sending 5 bytes of a body filled the
// file descriptors and /healthz stopped answering).
const (
	// MaxConnections is the most connections served at once; more wait
	// to be accepted.
	MaxConnections = 1000
	// ReadTimeout bounds reading a request, headers and body.
	ReadTimeout = 30 * time.Second
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout closes a kept-alive connection with no request.
	IdleTimeout = 2 * time.Minute
)

// HTTPServer is the http.Server for h with serve's limits of time, its
// requests' contexts derived from ctx. Serve it on LimitListener.
func HTTPServer(h http.Handler, ctx context.Context) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: ReadHeaderTimeout, ReadTimeout: ReadTimeout,
		IdleTimeout: IdleTimeout, BaseContext: func(net.Listener) context.Context { return ctx }}
}

// LimitListener accepts at most n connections open at once from ln: the
// next Accept waits until one is closed.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
