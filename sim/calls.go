package sim

// Calls are the calls a recording's latencies are of: those its client
// sent, and how the failed ones ended (their last attempt, with retries).
// A latency of the recording (mean, percentile, max) is over the answered
// calls only; a corrected recording adds samples to its client's answered
// calls, never calls.
type Calls struct {
	Sent                       int64
	Rejected, Outage, TimedOut int64 // failed: by a full queue, in an outage, at the client's timeout
}

// Failed is how many of the calls failed.
func (c Calls) Failed() int64 { return c.Rejected + c.Outage + c.TimedOut }

// Answered is how many of the calls were answered in time.
func (c Calls) Answered() int64 { return c.Sent - c.Failed() }

// Calls returns the calls of recording k: its client's. Only the event
// engine fails calls; on the fast path every call sent is answered.
func (r *Result) Calls(k Kind) Calls {
	cl := k.Client()
	if r.Engine == nil {
		return Calls{Sent: r.Clients[cl].Sent}
	}
	e := &r.Engine.Clients[cl]
	return Calls{Sent: e.Sent, Rejected: e.Rejected, Outage: e.Failed, TimedOut: e.TimedOut}
}
