package hook

// SetField is func(c *sim.Config, name, text string) *sim.FieldError: the
// field's row of sim's table reads text into c (the row's own read, as
// ParseQuery reads the field), or returns its error. name is a field of
// the table.
var SetField any

// RunPoint is func(sim.Config) (*sim.Result, error): sim.Run, except that a
// deterministic run that Run would walk request by request takes the long
// path when its stretches cost less (the same report and hash).
var RunPoint any

// PointTakesLong is func(sim.Config) bool: whether RunPoint takes the long
// path for a run that Run would walk.
var PointTakesLong any
