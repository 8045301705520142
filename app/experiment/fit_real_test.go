package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"omission/app/fit"
	"omission/app/measure"
	"omission/sim"
)

// fitRealTolerance is issue 23's bound for a real file: the fitted stall and
// period within 5 % of the schedule the server kept, and the open loop's p99
// the fit predicts within 5 % of the real open client's.
const fitRealTolerance = 0.05

// drawSchedule draws the stalling server's schedule the fit is not told: a
// stall of 100 to 300 ms every 0.8 to 2 s, the first 0.2 to 1 s in (each a
// whole number of 1/rate, the closed forms' regime), on the bench preset's
// 100 µs service at 1000 requests a second for 30 s. 30 s, not 10: an
// .hlog's 1 s intervals place each stall's slow reply to within an
// interval, so n stalls bound the period to about ±1 s/(n−1), which over
// 10 s is up to ±11 % of it and over 30 s within ±4 %.
func drawSchedule(seed uint64) sim.Config {
	r := rand.New(rand.NewPCG(seed, 23))
	cfg := sim.Default()
	cfg.Rate = sim.RateOf(1000)
	cfg.Duration = 30e9
	const ms = int64(1e6)
	cfg.Stall = (100 + r.Int64N(201)) * ms
	cfg.Every = (800 + r.Int64N(1201)) * ms
	cfg.First = (200 + r.Int64N(801)) * ms
	return cfg
}

// fitRealSeed is the schedule's seed: OMISSION_FIT_SEED, else the day's
// date (a new schedule each day, printed so that a run can be repeated).
func fitRealSeed(t *testing.T) uint64 {
	if s := os.Getenv("OMISSION_FIT_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("OMISSION_FIT_SEED=%q: a whole number from 0 to %d", s, uint64(math.MaxUint64))
		}
		return v
	}
	y, m, d := time.Now().UTC().Date()
	return uint64(y*10000 + int(m)*100 + d)
}

func freeOf(r *fit.Result, p string) *fit.Free {
	for i := range r.Ambiguous {
		if r.Ambiguous[i].Param == p {
			return &r.Ambiguous[i]
		}
	}
	return nil
}

func relErr(got, want int64) float64 {
	return math.Abs(float64(got-want)) / math.Abs(float64(want))
}

// TestFitReal is issue 23's real truth: a stalling server on loopback on a
// schedule the test draws (seeded, printed), recorded for 30 s by the real wrk
// (Debian's; skipped when absent) and by the experiment's own closed client
// (its .hlog); each file is fitted by package fit without the schedule, and
// the fitted stall and period are held within 5 % of the drawn ones, and the
// open loop's p99 the fit predicts within 5 % of the experiment's real open
// client's on the same schedule, and within 5 % of wrk2's where it is
// built (tools/install.sh, WRK2_GIT_DIR; skipped with a message where
// not): a second real open loop, not a file fitted. It
// prints BENCH lines (make bench) and, with OMISSION_FIT_REAL_OUT=DIR,
// writes each file and its schedule there.
func TestFitReal(t *testing.T) {
	if os.Getenv("OMISSION_EXPERIMENT") == "" {
		t.Skip("runs the real wrk and the experiment's clients for 30 s each: set OMISSION_EXPERIMENT=1 (make bench does)")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	seed := fitRealSeed(t)
	cfg := drawSchedule(seed)
	t.Logf("seed %d: the server's schedule %s", seed, cfg.Query())
	fmt.Printf("BENCH fit_real.seed %d seed\n", seed)
	out := os.Getenv("OMISSION_FIT_REAL_OUT")
	save := func(name string, data []byte, header string) {
		if out == "" {
			return
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, name+".txt"), []byte(header), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	about := func(cmd string, load [2]float64) string {
		host, _ := os.Hostname()
		return fmt.Sprintf("command: %s\nschedule (the server's, not told to the fit): %s (seed %d)\nmachine: %s, %d processors\ndate: %s\nload average (1 min) at start and end: %.2f %.2f\n",
			cmd, cfg.Query(), seed, host, runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339), load[0], load[1])
	}

	// The experiment's closed and open clients, each against a fresh
	// server on the schedule.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, cfg, Options{Clients: []string{"closed", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	openP99 := res.Measured["open"].P99Ns
	fmt.Printf("BENCH fit_real.open_p99.real %d ns\n", openP99)
	fmt.Printf("BENCH fit_real.load_average.clients %.2f load\n", max(res.LoadAverage[0], res.LoadAverage[1]))
	var hlog bytes.Buffer
	if err := res.Sets()["closed"].Export(&hlog, "hlog", "", 0); err != nil {
		t.Fatal(err)
	}
	save("closed.hlog", hlog.Bytes(), about("experiment (the closed client), "+cfg.Query(), res.LoadAverage))

	type file struct {
		name string
		data []byte
		opt  fit.Options
		// offset: when the file's clock started after the server's (its
		// first request): its stalls are the schedule shifted.
		offset int64
	}
	files := []file{{name: "closed.hlog", data: hlog.Bytes()}}
	if bin, err := exec.LookPath("wrk"); err != nil {
		t.Log("wrk is not installed (apt-get install wrk): its file is not fitted")
	} else {
		r, err := runReal(t, bin, cfg, "", "-t1", "-c1", fmt.Sprintf("-d%ds", cfg.Duration/1e9), "--latency")
		if err != nil {
			t.Fatal(err)
		}
		v := viewOf(r, cfg)
		save("wrk.txt", []byte(r.out), about(fmt.Sprintf("%s -t1 -c1 -d%ds --latency http://127.0.0.1:PORT/", filepath.Base(bin), cfg.Duration/1e9), r.load))
		fmt.Printf("BENCH fit_real.load_average.wrk %.2f load\n", max(r.load[0], r.load[1]))
		// wrk states no rate: the open loop's is given, as
		// `report -fit wrk.txt rate=1000` would.
		files = append(files, file{name: "wrk.txt", data: []byte(r.out), opt: fit.Options{Rate: cfg.Rate}, offset: v.firstNs})
	}
	// wrk2, where it is built, is a second real open loop on the same
	// schedule: its printout (latency from each request's intended time,
	// the HdrHistogram spectrum) gives the p99 the fits' open-loop p99 is
	// held to as well.
	var wrk2P99 int64
	if bin, err := FindTool("wrk2"); err != nil {
		t.Log("wrk2 is not built here (WRK2_GIT_DIR=… " + InstallScript + "): no second real open loop")
	} else {
		args := []string{"-t1", "-c1", fmt.Sprintf("-d%ds", cfg.Duration/1e9), "-R" + strconv.FormatInt(int64(cfg.Rate)/1000, 10), "--latency"}
		r, err := runReal(t, bin, cfg, "", args...)
		if err != nil {
			t.Fatal(err)
		}
		save("wrk2.txt", []byte(r.out), about(filepath.Base(bin)+" "+strings.Join(args, " ")+" http://127.0.0.1:PORT/", r.load))
		// Its file is fitted too, as a user's would be: wrk2 states its
		// rate, so the fit is not told it; the stalls' times are not in
		// the printout, so every range it states must hold the truth.
		files = append(files, file{name: "wrk2.txt", data: []byte(r.out), offset: viewOf(r, cfg).firstNs})
		f, err := measure.Parse("wrk2.txt", []byte(r.out))
		if err != nil {
			t.Fatalf("wrk2's printout: %v\n%s", err, r.out)
		}
		if p := metricsOfDist(&f.Dists[0]).P99Ns; p != nil {
			wrk2P99 = *p
		}
		if wrk2P99 <= 0 {
			t.Fatalf("wrk2's printout has no p99:\n%s", r.out)
		}
		fmt.Printf("BENCH fit_real.open_p99.wrk2 %d ns\n", wrk2P99)
		fmt.Printf("BENCH fit_real.load_average.wrk2 %.2f load\n", max(r.load[0], r.load[1]))
	}
	for _, f := range files {
		t0 := time.Now()
		r, err := fit.Fit(f.name, f.data, f.opt)
		if err != nil {
			t.Errorf("%s: %v", f.name, err)
			continue
		}
		took := time.Since(t0)
		c := r.Config
		t.Logf("%s: fitted %s in %s (worst headline %.2f %%, explained %v); first %s against %s (the file's clock %s after the server's)",
			f.name, r.Query, took.Round(time.Millisecond), 100*r.Worst, r.Explained,
			time.Duration(c.First), time.Duration(shifted(cfg, f.offset).First), time.Duration(f.offset))
		for _, a := range r.Ambiguous {
			t.Logf("%s: %s free: %s (%s to %s): %s", f.name, a.Param, a.Value, a.Lo, a.Hi, a.Why)
		}
		key := map[string]string{"closed.hlog": "hlog", "wrk.txt": "wrk", "wrk2.txt": "wrk2"}[f.name]
		// A stated range must hold the truth, whatever the file: the
		// stall, the period and the first stall (on the file's clock),
		// and the open loop's p99 where the fit gives a range for it.
		truth := map[string]int64{"stall": cfg.Stall, "every": cfg.Every, "first": shifted(cfg, f.offset).First}
		for _, a := range r.Ambiguous {
			want, ok := truth[a.Param]
			if !ok || a.Lo == "" && a.Hi == "" {
				continue
			}
			lo, hi, err := a.DurationSpan()
			if err != nil {
				t.Errorf("%s: %v", f.name, err)
				continue
			}
			inside := want >= lo && want <= hi
			printHolds(key+"."+a.Param, inside)
			if !inside {
				t.Errorf("%s: the fit states %s = %s in [%s, %s], but the truth %s is outside it; fit %s, schedule %s (seed %d)",
					f.name, a.Param, a.Value, a.Lo, a.Hi, time.Duration(want), r.Query, cfg.Query(), seed)
			}
		}
		if rg := r.Hidden.OpenP99RangeNs; len(rg) == 2 {
			// 1 % either side, as package fit's TestRealPrintouts holds a
			// range to the model's open loop: here the truth is a real
			// open client's p99, which carries its own noise (a wrk
			// printout's range ended at 129.1 ms, 0.5 % above the real
			// client's 128.45 ms, whose model gives 129.1 ms).
			inside := float64(openP99) >= 0.99*float64(rg[0]) && float64(openP99) <= 1.01*float64(rg[1])
			printHolds(key+".open_p99", inside)
			if !inside {
				t.Errorf("%s: the fit states the open loop's p99 in [%s, %s], but the real open client's is %s",
					f.name, time.Duration(rg[0]), time.Duration(rg[1]), time.Duration(openP99))
			}
		}
		for _, m := range []struct {
			what      string
			got, want int64
		}{
			{"stall", c.Stall, cfg.Stall},
			{"every", c.Every, cfg.Every},
			{"open_p99", r.Hidden.OpenP99Ns, openP99},
		} {
			e := relErr(m.got, m.want)
			fmt.Printf("BENCH fit_real.%s.%s %d ns\n", key, m.what, m.got)
			fmt.Printf("BENCH fit_real.%s.%s_err %.2f percent\n", key, m.what, 100*e)
			if fr := freeOf(r, m.what); fr != nil && strings.Contains(fr.Why, "holds no times") {
				// A printout without times (wrk's) shows how many stalls
				// the run met, not when: every period that places them
				// in the run prints the same numbers. The fit says so and
				// gives the range, held to the truth above.
				t.Logf("%s: the file leaves %s free in [%s, %s] (truth %s): not held to 5 %%", f.name, m.what, fr.Lo, fr.Hi, time.Duration(m.want))
				continue
			}
			if e > fitRealTolerance {
				t.Errorf("%s: the fitted %s is %s, the truth %s: %.1f %% off (bound %.0f %%); fit %s, schedule %s (seed %d)",
					f.name, m.what, time.Duration(m.got), time.Duration(m.want), 100*e, 100*fitRealTolerance, r.Query, cfg.Query(), seed)
			}
		}
		if wrk2P99 > 0 {
			e := relErr(r.Hidden.OpenP99Ns, wrk2P99)
			fmt.Printf("BENCH fit_real.%s.open_p99_wrk2_err %.2f percent\n", key, 100*e)
			if e > fitRealTolerance {
				t.Errorf("%s: the fitted open loop's p99 is %s, wrk2's real one %s: %.1f %% off (bound %.0f %%); fit %s, schedule %s (seed %d)",
					f.name, time.Duration(r.Hidden.OpenP99Ns), time.Duration(wrk2P99), 100*e, 100*fitRealTolerance, r.Query, cfg.Query(), seed)
			}
		}
		fmt.Printf("BENCH fit_real.%s.ms %d ms\n", key, took.Milliseconds())
	}
}

// printHolds prints whether a stated range held the truth, as a BENCH line.
func printHolds(name string, inside bool) {
	v := 0
	if inside {
		v = 1
	}
	fmt.Printf("BENCH fit_real.%s_range_holds %d bool\n", name, v)
}
