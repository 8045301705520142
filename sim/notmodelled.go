package sim

// NotModelled lists what the model leaves out, in every report (a copy).
func NotModelled() []string { return append([]string(nil), notModelled...) }

var notModelled = []string{
	"Network: no latency, jitter, loss or bandwidth between the client and the server.",
	"The load generator's own pauses: no garbage collection, scheduling delay or timer resolution in the client.",
	"Connection setup, TLS and pools: the closed client's connections are always open.",
	"Retries other than a fixed policy: without attempts a rejected, failed or timed-out request is never sent again; with attempts each retry waits the same fixed backoff, with no jitter and no growing (exponential) backoff.",
	"Cancellation: a client that gives up does not stop the server; the work is finished and counted as wasted.",
	"Autoscaling and load shedding other than the queue capacity: the workers are fixed for the whole run.",
	"Caches, warm-up and cold starts: every service time is an independent draw from its distribution.",
	"Contention between workers (locks, shared CPU, memory): workers are independent, except that a stall freezes them all.",
	"Dependencies and correlated failures: only the declared stalls, outages and slowdown windows disturb the server; a slowdown multiplies each service that starts in its window by one factor, with no gradual onset and none that depends on the load.",
	"Scheduling other than first come, first served: no priorities, deadlines or LIFO at the server.",
	"Clock effects: no skew or drift; virtual time is exact to the nanosecond.",
	"Request mixes and payload sizes: every request is alike.",
}
