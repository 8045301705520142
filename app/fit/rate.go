package fit

import (
	"fmt"
	"strings"

	"omission/sim"
)

// ParseRate reads the rate a reader pins a fit with (report -fit FILE
// rate=R, the page's rate beside a file): requests per second, 0.001 to
// sim.MaxRate with at most three decimals; "" pins nothing (0). Its
// error names the field and its range.
func ParseRate(s string) (sim.Rate, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	r, err := sim.ParseRate(s)
	if err == nil && (r < 1 || r > sim.MaxRate) {
		err = fmt.Errorf("out of range")
	}
	if err != nil {
		return 0, fmt.Errorf("rate: %q is %v: allowed 0.001 to %s requests per second, with at most three decimals", s, err, sim.MaxRate)
	}
	return r, nil
}
