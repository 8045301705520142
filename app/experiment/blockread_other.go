//go:build !linux

package experiment

import (
	"io"
	"net"
	"time"
)

// newBlockingReader reads c through Go's network poller where blocking
// reads on the socket are not set up (see blockread_linux.go).
func newBlockingReader(c net.Conn, deadline time.Time) (io.Reader, func(), error) {
	c.SetReadDeadline(deadline)
	return c, func() { c.SetReadDeadline(time.Now()) }, nil
}
