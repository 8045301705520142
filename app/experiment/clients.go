package experiment

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"omission/sim"
)

// requestBytes is what every client sends: a keep-alive HTTP/1.1 GET.
var requestBytes = []byte("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: omission-experiment\r\n\r\n")

// The transport is raw keep-alive TCP carrying HTTP/1.1: each client opens
// its connections once, before the schedule starts, writes request bytes
// itself and parses the replies itself. Go's net/http client was the other
// choice; it was not taken because its connection pool may open, close or
// reuse connections behind the client's back (a new connection's handshake
// would be timed as latency) and it never pipelines, so it cannot send an
// open loop's outstanding requests on one connection. The open client
// pipelines on one connection, which against a server with one worker is
// exactly the model's open loop: requests queue at the server in due order.
const Transport = "raw keep-alive TCP: HTTP/1.1 written and parsed by the clients over connections opened before the schedule starts, so that no pool opens one behind a client's back and no handshake is timed; the open client pipelines on one connection, which against one worker is the model's open loop"

// ClientRun is what one real client did.
type ClientRun struct {
	Client     string `json:"client"`
	Planned    int64  `json:"planned"`
	Sent       int64  `json:"sent"`
	Answered   int64  `json:"answered"`
	Unanswered int64  `json:"unanswered"` // sent but not answered within the drain limit
	Server     string `json:"server"`
	// Per answered request, in answer order: when its reply arrived and its
	// recorded latency (ns from the server's epoch).
	At, Latency []int64 `json:"-"`
	Hold        Hold    `json:"server_hold"`
	Err         string  `json:"error,omitempty"`
}

// readReply reads one HTTP/1.1 response (status line, headers, a body of
// Content-Length bytes).
func readReply(br *bufio.Reader) error {
	length, err := readHead(br, 0, func(t []byte) error {
		if !bytes.HasPrefix(t, []byte("HTTP/1.1 200")) {
			return fmt.Errorf("experiment: unexpected reply %q", t)
		}
		return nil
	})
	switch {
	case err == errBadLength:
		return errors.New("experiment: bad Content-Length in a reply")
	case err != nil:
		return err
	case length < 0:
		return errors.New("experiment: a reply without Content-Length")
	}
	_, err = br.Discard(length)
	return err
}

// errBadLength is readHead's answer to a Content-Length that is not a
// whole number of bytes.
var errBadLength = errors.New("bad Content-Length")

// readHead reads an HTTP/1.1 head up to its blank line: first checks the
// start line; at most maxHead bytes when maxHead > 0. It returns the
// Content-Length, or -1 when the head has none.
func readHead(br *bufio.Reader, maxHead int, first func(line []byte) error) (length int, err error) {
	length = -1
	for n, start := 0, true; ; start = false {
		l, err := br.ReadSlice('\n')
		if err != nil {
			return length, err
		}
		if n += len(l); maxHead > 0 && n > maxHead {
			return length, errors.New("request head too long")
		}
		t := bytes.TrimRight(l, "\r\n")
		if start {
			if err := first(t); err != nil {
				return length, err
			}
			continue
		}
		if len(t) == 0 {
			return length, nil
		}
		if k, v, ok := bytes.Cut(t, []byte(":")); ok && bytes.EqualFold(bytes.TrimSpace(k), []byte("Content-Length")) {
			if length, err = strconv.Atoi(string(bytes.TrimSpace(v))); err != nil || length < 0 {
				return length, errBadLength
			}
		}
	}
}

// plan is a client's schedule and limits.
type plan struct {
	cfg   sim.Config
	sched sim.Schedule
	n     int64         // planned requests
	end   time.Duration // no send at or after duration + drain
	drain time.Duration
}

func (p plan) due(i int64) int64 { return p.sched.Due(i) }

// dial opens a connection before the schedule starts.
func dial(ctx context.Context, addr string) (net.Conn, *bufio.Reader, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	return c, bufio.NewReaderSize(c, 64<<10), nil
}

// blockingConn is a connection whose replies are read in blocking mode
// until the run's end (newBlockingReader); shut wakes a read that waits.
type blockingConn struct {
	c    net.Conn
	br   *bufio.Reader
	shut func()
}

// dialBlocking opens a connection before the schedule starts and reads it
// in blocking mode until deadline. close shuts it and closes it.
func dialBlocking(ctx context.Context, addr string, deadline time.Time) (blockingConn, error) {
	c, _, err := dial(ctx, addr)
	if err != nil {
		return blockingConn{}, err
	}
	r, shut, err := newBlockingReader(c, deadline)
	if err != nil {
		c.Close()
		return blockingConn{}, err
	}
	return blockingConn{c, bufio.NewReaderSize(r, 64<<10), shut}, nil
}

func (b blockingConn) close() {
	b.shut()
	b.c.Close()
}

// runClosed is the closed loop over cfg.Conns connections: request i is due
// at i/rate and leaves on the first free connection at the later of its due
// time and that connection's last reply; it records reply − send.
func runClosed(ctx context.Context, srv *Server, p plan) ClientRun {
	cr := ClientRun{Client: sim.ClosedClient.String(), Planned: p.n, Server: srv.Addr()}
	epoch := srv.Epoch()
	conns := make([]blockingConn, p.cfg.Conns)
	for k := range conns {
		cn, err := dialBlocking(ctx, srv.Addr(), epoch.Add(p.end))
		if err != nil {
			cr.Err = err.Error()
			return cr
		}
		defer cn.close()
		conns[k] = cn
	}
	var next, sent atomic.Int64
	var mu sync.Mutex
	at := make([]int64, 0, p.n)
	lat := make([]int64, 0, p.n)
	var wg sync.WaitGroup
	var firstErr error
	for k := range conns {
		wg.Add(1)
		go func(cn blockingConn) {
			defer wg.Done()
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= p.n {
					return
				}
				waitUntil(epoch.Add(time.Duration(p.due(i))))
				t := time.Since(epoch)
				if t >= p.end {
					return
				}
				if _, err := cn.c.Write(requestBytes); err != nil {
					mu.Lock()
					firstErr = errors.Join(firstErr, err)
					mu.Unlock()
					return
				}
				sent.Add(1)
				if err := readReply(cn.br); err != nil {
					if !errors.Is(err, context.Canceled) && !isTimeout(err) {
						mu.Lock()
						firstErr = errors.Join(firstErr, err)
						mu.Unlock()
					}
					return
				}
				r := time.Since(epoch)
				mu.Lock()
				at = append(at, int64(r))
				lat = append(lat, int64(r-t))
				mu.Unlock()
			}
		}(conns[k])
	}
	stop := context.AfterFunc(ctx, func() {
		for _, cn := range conns {
			cn.shut()
		}
	})
	wg.Wait()
	stop()
	cr.Sent, cr.At, cr.Latency = sent.Load(), at, lat
	cr.Answered = int64(len(lat))
	cr.Unanswered = cr.Sent - cr.Answered
	if firstErr != nil {
		cr.Err = firstErr.Error()
	}
	return cr
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, io.EOF) || errors.Is(err, os.ErrDeadlineExceeded) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ENOTCONN) || errors.Is(err, syscall.EPIPE)
}

// runPaced is the paced client on one connection: it sleeps to its next
// slot (anchor + round(k/rate)); when a reply comes after the slot it sends
// at once and restarts the schedule from that reply, so the slots it missed
// are never sent; it records reply − send (seed 001's paced client, the
// model's sim/walk.go stepPaced).
func runPaced(ctx context.Context, srv *Server, p plan) ClientRun {
	cr := ClientRun{Client: sim.PacedClient.String(), Planned: p.n, Server: srv.Addr()}
	epoch := srv.Epoch()
	cn, err := dialBlocking(ctx, srv.Addr(), epoch.Add(p.end))
	if err != nil {
		cr.Err = err.Error()
		return cr
	}
	defer cn.close()
	c, br := cn.c, cn.br
	stop := context.AfterFunc(ctx, cn.shut)
	defer stop()
	dur := p.cfg.Duration
	anchor, k := int64(0), int64(0)
	slot := int64(0)
	for ctx.Err() == nil {
		if slot >= dur {
			break
		}
		waitUntil(epoch.Add(time.Duration(slot)))
		t := time.Since(epoch)
		if t >= p.end {
			break
		}
		if _, err := c.Write(requestBytes); err != nil {
			cr.Err = err.Error()
			break
		}
		cr.Sent++
		if err := readReply(br); err != nil {
			if !isTimeout(err) {
				cr.Err = err.Error()
			}
			break
		}
		r := int64(time.Since(epoch))
		cr.At = append(cr.At, r)
		cr.Latency = append(cr.Latency, r-int64(t))
		k++
		next := anchor + p.due(k)
		if r > next { // late: send at once, the schedule restarts here
			anchor, k, next = r, 0, r
		}
		slot = next
	}
	cr.Answered = int64(len(cr.Latency))
	cr.Unanswered = cr.Sent - cr.Answered
	return cr
}

// runOpen is the open loop: one goroutine sends every request when it is
// due, writing at once whatever is outstanding when it wakes late, on one
// pipelined connection; another reads the replies in order and records
// reply − due.
func runOpen(ctx context.Context, srv *Server, p plan) ClientRun {
	cr := ClientRun{Client: sim.OpenClient.String(), Planned: p.n, Server: srv.Addr()}
	epoch := srv.Epoch()
	c, br, err := dial(ctx, srv.Addr())
	if err != nil {
		cr.Err = err.Error()
		return cr
	}
	defer c.Close()
	var sent atomic.Int64
	var sendErr error
	sendDone := make(chan struct{})
	go func() {
		defer close(sendDone)
		buf := make([]byte, 0, 64*len(requestBytes))
		for i := int64(0); i < p.n && ctx.Err() == nil; {
			waitUntil(epoch.Add(time.Duration(p.due(i))))
			now := int64(time.Since(epoch))
			if time.Duration(now) >= p.end {
				return
			}
			buf = buf[:0]
			j := i
			for j < p.n && p.due(j) <= now && len(buf) < cap(buf) {
				buf = append(buf, requestBytes...)
				j++
			}
			sent.Add(j - i) // counted before the write: the reader may see the reply first
			if _, err := c.Write(buf); err != nil {
				sent.Add(i - j)
				sendErr = err
				return
			}
			i = j
		}
	}()
	stop := context.AfterFunc(ctx, func() { c.SetReadDeadline(time.Now()) })
	defer stop()
	c.SetReadDeadline(epoch.Add(p.end))
	var answered atomic.Int64
	readerDone := make(chan struct{})
	go func() {
		// Once the sender is done, unblock the reader as soon as every
		// request sent is answered (it would otherwise wait for the drain
		// limit on a read that no reply will end).
		<-sendDone
		for answered.Load() < sent.Load() {
			select {
			case <-readerDone:
				return
			case <-time.After(time.Millisecond):
			}
		}
		c.SetReadDeadline(time.Now())
	}()
	at := make([]int64, 0, p.n)
	lat := make([]int64, 0, p.n)
	for k := int64(0); k < p.n; k++ {
		if err := readReply(br); err != nil {
			if !isTimeout(err) {
				cr.Err = err.Error()
			}
			break
		}
		r := int64(time.Since(epoch))
		at = append(at, r)
		lat = append(lat, r-p.due(k))
		answered.Add(1)
	}
	close(readerDone)
	c.SetReadDeadline(time.Now())
	<-sendDone
	if sendErr != nil && cr.Err == "" {
		cr.Err = sendErr.Error()
	}
	cr.Sent, cr.At, cr.Latency = sent.Load(), at, lat
	cr.Answered = int64(len(lat))
	cr.Unanswered = cr.Sent - cr.Answered
	return cr
}
