// Command hdrencode prints hdrhistogram-go's encodings of a few histograms:
// TestHdrEncodeUnchanged runs it with and without the browser build's
// patch of hdr_encoding.go and compares the bytes.
package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

func main() {
	rng := rand.New(rand.NewPCG(1, 2))
	var out bytes.Buffer
	lw := hdrhistogram.NewHistogramLogWriter(&out)
	for _, c := range []struct {
		lo, hi int64
		sig    int
		n      int
	}{
		{1, 3_600_000_000_000, 3, 0},
		{1, 3_600_000_000_000, 3, 1},
		{1, 3_600_000_000_000, 3, 5000},
		{1000, 60_000_000_000, 2, 300},
		{1, 1_000_000, 5, 2000},
	} {
		h := hdrhistogram.New(c.lo, c.hi, c.sig)
		for i := 0; i < c.n; i++ {
			v := int64(rng.ExpFloat64() * 2e6)
			if i%97 == 0 {
				v *= 1000 // long runs of empty buckets between the values
			}
			h.RecordValue(min(max(v, c.lo), c.hi))
		}
		enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(&out, "%s\n", enc)
		h.SetTag("t")
		if err := lw.OutputIntervalHistogram(h); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Stdout.Write(out.Bytes())
}
