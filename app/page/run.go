package page

// How a simulation runs in the page.
//
// The page starts a run when its parameters change (never in Render). The
// first slice runs at once on the UI goroutine, inside the event that changed
// the parameters: a quick run (the presets take a few tens of milliseconds)
// is then painted in the frame that follows the event. go-app renders on a
// frame tick and picks at random among ready channel cases, so a result
// handed over by a dispatch from another goroutine tends to miss that frame
// and wait for the next tick, after a useless render.
//
// A run that needs more than one slice continues on its own goroutine. In
// the browser that goroutine shares the only thread: it yields to the browser
// between slices (input is handled, progress painted), and a newer parameter
// change cancels it. Its results come back to the UI goroutine by dispatch.
//
// Finished results are also published as the ui.StateResult state (a
// view.View), for components that follow it with ctx.ObserveState. The page
// publishes a result once its headline and table are painted, so that the
// heavier figures never hold them back.

// Status values of simStatus.
const (
	statusRunning   = "running"
	statusDone      = "done"
	statusFailed    = "failed"
	statusRefused   = "refused"
	statusCancelled = "cancelled"
)

// simStatus is where the latest run stands.
type simStatus struct {
	Seq      int64
	Status   string
	Err      string
	Progress float64 // 0 to 1, while running in slices
	Sliced   bool    // the run continues beyond its first slice
}
