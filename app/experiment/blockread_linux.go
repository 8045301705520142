//go:build linux

package experiment

import (
	"errors"
	"io"
	"net"
	"syscall"
	"time"
)

// blockingReader reads a TCP connection with blocking read(2) calls on its
// socket, put in blocking mode: the kernel wakes the reading thread itself
// when a reply arrives, where Go's network poller would first wake its
// own thread and then schedule the reader (two wake-ups, each of which a
// busy machine delays). The closed and paced clients, which wait for one
// reply at a time, read through it. Deadlines do not apply to a blocking
// socket: stop shuts the socket down, which ends a read in progress.
type blockingReader struct {
	rc    syscall.RawConn
	timer *time.Timer
}

// newBlockingReader switches c's socket to blocking mode and shuts it down
// at deadline.
func newBlockingReader(c net.Conn, deadline time.Time) (io.Reader, func(), error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil, nil, errors.New("experiment: not a TCP connection")
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil, nil, err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return nil, nil, err
	}
	if serr != nil {
		return nil, nil, serr
	}
	br := &blockingReader{rc: rc}
	stop := func() { rc.Control(func(fd uintptr) { syscall.Shutdown(int(fd), syscall.SHUT_RDWR) }) }
	br.timer = time.AfterFunc(time.Until(deadline), stop)
	return br, func() { br.timer.Stop(); stop() }, nil
}

func (b *blockingReader) Read(p []byte) (int, error) {
	for {
		var n int
		var err error
		if rerr := b.rc.Read(func(fd uintptr) bool {
			n, err = syscall.Read(int(fd), p)
			return true
		}); rerr != nil {
			return 0, rerr
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
