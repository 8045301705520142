package tools

import (
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestAlignReportIsTabwriter holds alignReport to the text/tabwriter layout
// vegeta's reporter uses, byte for byte, on rows like the report's (the
// status cell empty or ending in spaces, cells of every width, one
// non-ASCII cell).
func TestAlignReportIsTabwriter(t *testing.T) {
	cases := [][][3]string{
		{{"Requests", "[total, rate, throughput]", "0, 0.00, 0.00"}, {"Status Codes", "[code:count]", ""}},
		{{"a", "b", "c"}},
		{{"", "", ""}, {"x", "", "y"}},
		{{"Latencies", "[min, mean, 50, 90, 95, 99, max]", "1ms, 2µs"}, {"Success", "[ratio]", "100.00%"}, {"Status Codes", "[code:count]", "200:7  "}},
		{{"µ€", "ab", "  "}, {"abc", "é", "z"}},
	}
	for i := 0; i < 40; i++ {
		cases = append(cases, [][3]string{
			{strings.Repeat("r", i%13), strings.Repeat("[", i%7), fmt.Sprint(i)},
			{strings.Repeat("s", (i*5)%11), strings.Repeat("]", (i*3)%17), strings.Repeat(" ", i%3)},
		})
	}
	for _, rows := range cases {
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', tabwriter.StripEscape)
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r[0], r[1], r[2])
		}
		fmt.Fprintln(tw, "Error Set:")
		tw.Flush()
		if got, want := alignReport(rows)+"Error Set:\n", b.String(); got != want {
			t.Errorf("rows %q:\n got %q\nwant %q", rows, got, want)
		}
	}
}
