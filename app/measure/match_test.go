package measure

import (
	"testing"

	"omission/app/internal/matchtest"
)

// TestMatchersAreTheRegexps holds the .hlog line matcher to the regular
// expression it stands for (matchtest.Check).
func TestMatchersAreTheRegexps(t *testing.T) {
	matchtest.Check(t, []matchtest.Case{{
		Re: `^(Tag=[^,]*,)?[0-9.]+,[0-9.]+,[0-9.]+,HIST`,
		Match: func(s string) []string {
			if matchHlogLine(s) {
				return []string{"match"}
			}
			return nil
		},
		Bool:  true,
		Shape: []string{"Tag=closed,", "0.127", ",", "1.0", ",", "3", ",", "HISTFAAAA"},
		Parts: []string{"Tag=", "x", ",", ".", "12", "HIST", " "},
	}})
}
