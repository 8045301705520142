package fit

import "strings"

// Words names a residual's number for people: "requests" for count,
// "never sent" for dropped, "p99.9"
// for p99_9_ns, "mean" for mean_ns; the JSON keeps the key.
func Words(metric string) string {
	switch metric {
	case "count":
		return "requests"
	case "dropped":
		return "never sent"
	}
	if m, ok := strings.CutSuffix(metric, "_ns"); ok {
		return strings.ReplaceAll(m, "_", ".")
	}
	return metric
}
