package sim

// The limits themselves are declared beside what they bound: MaxRequests
// and ExactSamples with the Config (config.go), the engine's with its fields
// (engine_config.go), MaxSeriesPoints with the series (engine_series.go).

// Limits returns the limits a run was made under, by name. They are in the
// report and in the hash: other limits could give other results.
func Limits() map[string]int64 {
	return map[string]int64{
		"requests":      MaxRequests,
		"exact_samples": ExactSamples,
		"arrivals":      MaxArrivals,
		"events":        MaxEvents,
		"queued":        MaxQueued,
		"drain_ns":      MaxDrain,
		"series_points": MaxSeriesPoints,
	}
}
