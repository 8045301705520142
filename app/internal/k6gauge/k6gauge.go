package k6gauge

import (
	"regexp"
	"strconv"
	"time"
)

var (
	jsonTick = regexp.MustCompile(`(?m)^(\{"metric":"vus","type":"Point","data":\{"time":"([^"]+)","value":)[0-9.e+-]+`)
	csvTick  = regexp.MustCompile(`(?m)^(vus,([^,]+),)[0-9.]+`)
)

// Rewrite sets each vus tick of file (k6's --out json, or --out csv with
// RFC 3339 times) to active(t), t in ns since the epoch, as k6 writes a
// gauge (%d in JSON, %f in CSV). It returns the ticks it rewrote; a time
// that does not parse is an error.
func Rewrite(file string, csv bool, active func(t int64) int64) (string, int, error) {
	re, format := jsonTick, func(v int64) string { return strconv.FormatInt(v, 10) }
	if csv {
		re, format = csvTick, func(v int64) string { return strconv.FormatFloat(float64(v), 'f', 6, 64) }
	}
	var err error
	n := 0
	out := re.ReplaceAllStringFunc(file, func(m string) string {
		sub := re.FindStringSubmatch(m)
		at, e := time.Parse(time.RFC3339Nano, sub[2])
		if e != nil {
			err = e
			return m
		}
		n++
		return sub[1] + format(active(at.UnixNano()))
	})
	return out, n, err
}
