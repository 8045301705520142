package tools

import (
	"testing"

	"omission/app/internal/matchtest"
)

// TestWrkMatchersAreTheRegexps holds each of wrk's hand matchers to the
// regular expression it stands for (matchtest.Check).
func TestWrkMatchersAreTheRegexps(t *testing.T) {
	matchtest.Check(t, []matchtest.Case{
		{Re: `^\s*Latency\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+([0-9.]+)(us|ms|s|m|h)\s+`, Match: matchWrkLat,
			Shape: []string{"    ", "Latency", "   ", "635.91", "us", "  ", "1.2", "ms", "\t", "12", "s", " ", "83.02%"},
			Parts: []string{" ", "1.2.3", ".", "m", "h", "x", "sec"}},
		{Re: `^\s*([0-9]+) requests in `, Match: matchWrkReqs,
			Shape: []string{"  ", "12345", " requests in ", "10.00s"},
			Parts: []string{" ", "3", "requests", " in ", "x", "1.5"}},
		{Re: `^\s*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)`, Match: matchWrkErrs,
			Shape: []string{"  ", "Socket errors: connect ", "0", ", read ", "12", ", write ", "3", ", timeout ", "45"},
			Parts: []string{" ", ",", "x", "1.5"}},
		{Re: `^\s*([0-9]+(?:\.[0-9]+)?)%\s+([0-9]+(?:\.[0-9]+)?)(us|ms|s|m|h)\s*$`, Match: matchWrkPct,
			Shape: []string{"  ", "99.900", "%", "   ", "1.50", "ms", " "},
			Parts: []string{" ", "\t", "50", ".", "12", "us", "s", "m", "h", "x", "\r", "%"}},
	})
}
