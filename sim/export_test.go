package sim

// What sim's external tests (package sim_test, the tests that use
// sim/internal/simtest, which imports sim) need of its unexported code,
// exported for the tests only.

// RetryClosedFormApplies is retryClosedFormApplies (engine_retry_checks.go).
var RetryClosedFormApplies = retryClosedFormApplies

// RetryPredict is retryPredict (engine_retry_checks.go).
var RetryPredict = retryPredict

// ServeAndInvert serves a request ready at ready on a new server of cfg, as
// the walk does, and returns its service's start and reply and the stall
// model's inverse of the reply (ServiceStart of the reply and the service).
func ServeAndInvert(cfg Config, ready int64) (start, done, inverse int64) {
	sv := newServer(cfg)
	start, done = sv.serve(ready)
	return start, done, newStalls(cfg).ServiceStart(done, cfg.Service)
}
