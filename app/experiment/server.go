package experiment

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"sync"
	"time"

	"omission/app/units"
	"omission/sim"
)

// stalls is the server's stall schedule: window j is
// [first + j·every, first + j·every + length); every 0 means one window.
type stalls struct{ first, every, length int64 }

func stallsOf(cfg sim.Config) stalls {
	if cfg.Stall == 0 {
		return stalls{first: -1}
	}
	return stalls{cfg.First, cfg.Every, cfg.Stall}
}

// nextStart returns the start of the first window that starts at or after
// t, or -1.
func (s stalls) nextStart(t int64) int64 {
	switch {
	case s.first < 0:
		return -1
	case t <= s.first:
		return s.first
	case s.every == 0:
		return -1
	}
	j := (t - s.first + s.every - 1) / s.every
	return s.first + j*s.every
}

// containing returns the end of the window holding t (start <= t < end),
// or -1.
func (s stalls) containing(t int64) int64 {
	if s.first < 0 || t < s.first {
		return -1
	}
	j := int64(0)
	if s.every > 0 {
		j = (t - s.first) / s.every
	}
	start := s.first + j*s.every
	if t < start+s.length {
		return start + s.length
	}
	return -1
}

// reply returns when a request ready at t (ns from the server's start) is
// answered, by the model's rules (sim/server.go): a request that would
// start inside a stall starts when it ends; a stall that begins strictly
// inside a service adds its length; one that begins exactly at a completion
// leaves it alone. It also returns the request's start.
func (s stalls) reply(t, service int64) (start, done int64) {
	start = t
	if end := s.containing(t); end >= 0 {
		start = end
	}
	cur, rest := start, service
	for {
		ns := s.nextStart(cur + 1)
		if ns < 0 || ns >= cur+rest {
			return start, cur + rest
		}
		rest -= ns - cur
		cur = ns + s.length
	}
}

// responseBytes is the server's reply to every request.
// It names Keep-Alive: ab -k keeps a connection only when the reply's head
// contains "Keep-Alive" (httpd 2.4.62 support/ab.c 1760-1762), and waits
// for the server to close it otherwise.
var responseBytes = []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok")

// maxHeader bounds a request's head.
const maxHeader = 8 << 10

// Server is the stalling HTTP/1.1 server: it listens on 127.0.0.1 (a free
// port), queues the requests of every connection in arrival order for the
// query's workers (unlimited: each request has its own), holds each for the
// service time and answers when the model says a reply would be written,
// stalls measured from Epoch.
type Server struct {
	cfg     sim.Config
	st      stalls
	ln      net.Listener
	epoch   time.Time
	queue   chan *request
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	stats   []holdSample // guarded by mu
	maxKeep int
	// lazy: the stall clock (epoch) starts at the first request's arrival
	// (StartToolServer), set once.
	lazy bool
	once sync.Once
	// accepted counts the connections accepted (guarded by mu).
	accepted int32
	// acceptedAt is when each connection was accepted, in accept order
	// (guarded by mu): wrk2 takes a connection's schedule start just
	// before its connect (src/wrk.c 337-341), so the accept, not the first
	// request, is where its clock starts.
	acceptedAt []time.Time
}

type request struct {
	c       *serverConn
	seq     int64
	arrival int64 // ns from the epoch
	done    bool
}

type serverConn struct {
	id      int32 // the order in which the server accepted it
	conn    net.Conn
	mu      sync.Mutex
	pending []*request // in request order, not yet written
	next    int64      // sequence of the next request read
	out     []byte     // the replies being written
	err     error
}

// holdSample is one request as the server met it: when it arrived, when
// its service started by the model, when the model says it is answered,
// when its reply was handed to the kernel, and its connection (in accept
// order).
type holdSample struct {
	arrival, start, planned, written int64
	conn                             int32
}

// StartServer starts a server for cfg's stall schedule, service time and
// workers; it stops when ctx is done or Close is called. The stall clock
// starts when StartServer returns (Epoch).
func StartServer(ctx context.Context, cfg sim.Config) (*Server, error) {
	return startServer(ctx, cfg, false)
}

// StartToolServer is StartServer with the stall clock started by the first
// request's arrival: a real tool's own clock starts when it starts, which
// may be long after the server's (locust imports for a second), and its
// model runs on that clock.
func StartToolServer(ctx context.Context, cfg sim.Config) (*Server, error) {
	return startServer(ctx, cfg, true)
}

func startServer(ctx context.Context, cfg sim.Config, lazy bool) (*Server, error) {
	if cfg.EventDriven() {
		return nil, errors.New("experiment: the server plays the deterministic model only (constant arrivals, a fixed service time, no queue limit, timeout or outages)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("experiment: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	// Room for every request a stall can hold back and a second more, so
	// that a connection's reader never waits for the workers.
	room := int64(1 << 12)
	if r := int64(cfg.Rate) / 1000; r > 0 {
		room = min(int64(MaxPlanned), max(room, r*(cfg.Stall/1e9+2)))
	}
	s := &Server{cfg: cfg, st: stallsOf(cfg), ln: ln, queue: make(chan *request, room), ctx: cctx, cancel: cancel,
		conns: map[net.Conn]struct{}{}, maxKeep: 4_000_000, lazy: lazy}
	workers := cfg.Workers
	if workers > 0 {
		for w := 0; w < workers; w++ {
			s.wg.Add(1)
			go s.worker()
		}
	}
	s.epoch = time.Now()
	s.wg.Add(1)
	go s.accept()
	go func() {
		<-cctx.Done()
		ln.Close()
		s.mu.Lock()
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
	}()
	return s, nil
}

// Addr is the server's address, host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Epoch is the instant the stall schedule counts from.
func (s *Server) Epoch() time.Time { return s.epoch }

// Accepts is when each connection was accepted, in accept order, in ns
// from the stall clock's start (Epoch; negative: before it, as every
// connection a tool opens before its first request).
func (s *Server) Accepts() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]int64, len(s.acceptedAt))
	for i, at := range s.acceptedAt {
		out[i] = int64(at.Sub(s.epoch))
	}
	return out
}

// Close stops the server and waits for its goroutines.
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

func (s *Server) now() int64 { return int64(time.Since(s.epoch)) }

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		at := time.Now()
		s.mu.Lock()
		s.conns[c] = struct{}{}
		id := s.accepted
		s.accepted++
		s.acceptedAt = append(s.acceptedAt, at)
		s.mu.Unlock()
		s.wg.Add(1)
		go s.read(&serverConn{id: id, conn: c})
	}
}

// read parses the requests of one connection (pipelined or not) and queues
// each as it arrives.
func (s *Server) read(sc *serverConn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, sc.conn)
		s.mu.Unlock()
		sc.conn.Close()
	}()
	br := bufio.NewReaderSize(sc.conn, 64<<10)
	for {
		if err := readRequest(br); err != nil {
			return
		}
		if s.lazy {
			s.once.Do(func() { s.epoch = time.Now() })
		}
		r := &request{c: sc, seq: sc.next, arrival: s.now()}
		sc.next++
		sc.mu.Lock()
		sc.pending = append(sc.pending, r)
		sc.mu.Unlock()
		if s.cfg.Workers == 0 {
			s.wg.Add(1)
			go func() { defer s.wg.Done(); s.serve(r, nil) }()
			continue
		}
		select {
		case s.queue <- r:
		case <-s.ctx.Done():
			return
		}
	}
}

// readRequest reads one request head (and a body of Content-Length bytes).
func readRequest(br *bufio.Reader) error {
	length, err := readHead(br, maxHeader, func(t []byte) error {
		if len(bytes.Fields(t)) != 3 {
			return errors.New("bad request line")
		}
		return nil
	})
	switch {
	case err == errBadLength || err == nil && length > 1<<20:
		return errBadLength
	case err != nil:
		return err
	}
	_, err = br.Discard(max(length, 0))
	return err
}

func (s *Server) worker() {
	defer s.wg.Done()
	free := int64(0) // when this worker's last service ended, by the model
	for {
		select {
		case r := <-s.queue:
			s.serve(r, &free)
		case <-s.ctx.Done():
			return
		}
	}
}

// serve holds one request until the model's reply time and writes every
// reply of its connection that is then due, in order. A worker's request is
// ready at the later of its arrival and the end of the worker's previous
// service by the model (free), so that writing a reply never delays the
// next service: the worker is busy exactly the service time per request
// unless the machine falls behind (then Hold's lateness grows).
func (s *Server) serve(r *request, free *int64) {
	ready := r.arrival
	if free != nil {
		ready = max(ready, *free)
	}
	start, done := s.st.reply(ready, s.cfg.Service)
	if free != nil {
		*free = done
	}
	waitUntil(s.epoch.Add(time.Duration(done)))
	sc := r.c
	sc.mu.Lock()
	r.done = true
	out := sc.out[:0]
	k := 0
	for k < len(sc.pending) && sc.pending[k].done {
		out = append(out, responseBytes...)
		k++
	}
	sc.pending = sc.pending[k:]
	written := s.now() // when the reply is handed to the kernel
	s.mu.Lock()
	if len(s.stats) < s.maxKeep {
		s.stats = append(s.stats, holdSample{r.arrival, start, done, written, sc.id})
	}
	s.mu.Unlock()
	if len(out) > 0 && sc.err == nil {
		_, sc.err = sc.conn.Write(out)
	}
	sc.out = out
	sc.mu.Unlock()
}

// Hold is what the server achieved: how long after the model's reply time
// its replies were written.
type Hold struct {
	Requests   int64   `json:"requests"`
	ServiceNs  int64   `json:"service_ns"`       // the query's service time
	LateMeanNs float64 `json:"late_mean_ns"`     // reply written − model's reply time
	LateP50Ns  int64   `json:"late_p50_ns"`      //
	LateP99Ns  int64   `json:"late_p99_ns"`      //
	LateMaxNs  int64   `json:"late_max_ns"`      //
	HeldMeanNs float64 `json:"held_mean_ns"`     // reply written − start, for requests no stall touched
	Untouched  int64   `json:"untouched"`        // how many those are
	Method     string  `json:"method,omitempty"` // how the server waits
}

// Hold summarises the server's replies so far.
func (s *Server) Hold() Hold {
	s.mu.Lock()
	st := append([]holdSample(nil), s.stats...)
	s.mu.Unlock()
	h := Hold{Requests: int64(len(st)), ServiceNs: s.cfg.Service,
		Method: fmt.Sprintf("nanosleep (timer slack 1 ns) to %s before the reply time, then a spin on the monotonic clock", units.Duration(spinMargin))}
	if len(st) == 0 {
		return h
	}
	late := make([]int64, len(st))
	var sum, held float64
	for i, x := range st {
		late[i] = x.written - x.planned
		sum += float64(late[i])
		if x.planned-x.start == s.cfg.Service {
			held += float64(x.written - x.start)
			h.Untouched++
		}
	}
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	h.LateMeanNs = sum / float64(len(late))
	h.LateP50Ns = late[sim.RankOf(500000, int64(len(late)), sim.RankRound)-1]
	h.LateP99Ns = late[sim.RankOf(990000, int64(len(late)), sim.RankRound)-1]
	h.LateMaxNs = late[len(late)-1]
	if h.Untouched > 0 {
		h.HeldMeanNs = held / float64(h.Untouched)
	}
	return h
}
