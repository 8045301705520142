//go:build !minimal

package tools

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// k6ReadsTimes: this build reads the timestamps (the page's, built with
// the minimal tag, reads none: k6time_minimal.go).
const k6ReadsTimes = true

// k6Time reads a timestamp in one of timeFormat's layouts into ns since
// the epoch, with the unit it is written in (ns).
func k6Time(s string) (ns, unit int64, err error) {
	if strings.IndexByte(s, 'T') > 0 {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return 0, 0, fmt.Errorf("not RFC 3339")
		}
		unit = 1e9
		if strings.IndexByte(s, '.') > 0 {
			unit = 1
		}
		return t.UnixNano(), unit, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, 0, fmt.Errorf("expected seconds, ms, µs or ns since the epoch, or RFC 3339")
	}
	switch len(s) {
	case 10:
		unit = 1e9
	case 13:
		unit = 1e6
	case 16:
		unit = 1e3
	case 19:
		unit = 1
	default:
		return 0, 0, fmt.Errorf("%d digits: seconds, ms, µs and ns since the epoch have 10, 13, 16 and 19", len(s))
	}
	return n * unit, unit, nil
}
