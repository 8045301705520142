package fit

import "strings"

// Words names a residual's number for people: "requests" for count, "p99.9"
// for p99_9_ns, "mean" for mean_ns; the JSON keeps the key.
func Words(metric string) string {
	if metric == "count" {
		return "requests"
	}
	if m, ok := strings.CutSuffix(metric, "_ns"); ok {
		return strings.ReplaceAll(m, "_", ".")
	}
	return metric
}
