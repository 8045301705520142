package view

import "omission/app/jsonread"

// UnmarshalJSON reads a view as encoding/json would, without reflection
// (package jsonread says why): the page decodes one when it takes over the
// static HTML's result and with every result the worker sends.
// TestUnmarshalMatchesJSON holds it to encoding/json field by field.
func (v *View) UnmarshalJSON(b []byte) error {
	r := jsonread.New(b)
	v.ReadJSON(r)
	return r.End()
}

// ReadJSON reads a view, the next value of r, into v (UnmarshalJSON for a
// reader of a larger value).
func (v *View) ReadJSON(r *jsonread.Reader) {
	r.Object(func(k string) {
		switch k {
		case "Seq":
			v.Seq = r.Int()
		case "Query":
			v.Query = r.String()
		case "Hash":
			v.Hash = r.String()
		case "Columns":
			v.Columns = nil
			r.Array(func() {
				var c Column
				r.Object(func(k string) {
					switch k {
					case "Recording":
						c.Recording = r.String()
					case "Label":
						c.Label = r.String()
					case "Detail":
						c.Detail = r.String()
					default:
						r.Skip()
					}
				})
				v.Columns = append(v.Columns, c)
			})
		case "Rows":
			v.Rows = nil
			r.Array(func() {
				var row Row
				row.read(r)
				v.Rows = append(v.Rows, row)
			})
		case "Headline":
			v.Headline.read(r)
		case "Cost":
			r.Object(func(k string) {
				switch k {
				case "Requests":
					v.Cost.Requests = r.Int()
				case "Samples":
					v.Cost.Samples = r.Int()
				case "Ms":
					v.Cost.Ms = r.Float()
				case "Text":
					v.Cost.Text = r.String()
				default:
					r.Skip()
				}
			})
		case "Checks":
			v.Checks = nil
			r.Array(func() {
				var c Check
				c.read(r)
				v.Checks = append(v.Checks, c)
			})
		case "Passed":
			v.Passed = int(r.Int())
		case "Total":
			v.Total = int(r.Int())
		case "Notes":
			v.Notes = r.Strings()
		case "NoClosedForm":
			if r.Null() {
				v.NoClosedForm = nil
				return
			}
			if v.NoClosedForm == nil {
				v.NoClosedForm = map[string]string{}
			}
			r.Object(func(k string) { v.NoClosedForm[k] = r.String() })
		case "Invariants":
			if r.Null() {
				v.Invariants = nil
				return
			}
			if v.Invariants == nil {
				v.Invariants = map[string][]string{}
			}
			r.Object(func(k string) { v.Invariants[k] = r.Strings() })
		default:
			r.Skip()
		}
	})
}

func (row *Row) read(r *jsonread.Reader) {
	r.Object(func(k string) {
		switch k {
		case "Metric":
			row.Metric = r.String()
		case "Label":
			row.Label = r.String()
		case "Help":
			row.Help = r.String()
		case "Cells":
			row.Cells = nil
			r.Array(func() {
				var c Cell
				c.read(r)
				row.Cells = append(row.Cells, c)
			})
		case "Ratio":
			r.Object(func(k string) {
				switch k {
				case "Metric":
					row.Ratio.Metric = r.String()
				case "Exact":
					row.Ratio.Exact = r.String()
				case "Text":
					row.Ratio.Text = r.String()
				case "Why":
					row.Ratio.Why = r.String()
				default:
					r.Skip()
				}
			})
		default:
			r.Skip()
		}
	})
}

func (c *Cell) read(r *jsonread.Reader) {
	r.Object(func(k string) {
		switch k {
		case "ID":
			c.ID = r.String()
		case "Attr":
			c.Attr = r.String()
		case "Exact":
			c.Exact = r.String()
		case "Text":
			c.Text = r.String()
		case "Title":
			c.Title = r.String()
		case "Proof":
			c.Proof = r.String()
		case "Pass":
			c.Pass = r.Bool()
		default:
			r.Skip()
		}
	})
}

func (h *Headline) read(r *jsonread.Reader) {
	r.Object(func(k string) {
		switch k {
		case "ClosedP99":
			h.ClosedP99.read(r)
		case "OpenP99":
			h.OpenP99.read(r)
		case "ClosedSub":
			h.ClosedSub = r.String()
		case "OpenSub":
			h.OpenSub = r.String()
		case "Ratio":
			h.Ratio = r.String()
		case "RatioOK":
			h.RatioOK = r.Bool()
		case "RatioSub":
			h.RatioSub = r.String()
		case "NeverSent":
			h.NeverSent.read(r)
		case "Planned":
			h.Planned = r.String()
		case "NeverSentShare":
			h.NeverSentShare = r.String()
		case "PacedSub":
			h.PacedSub = r.String()
		case "Server":
			h.Server = r.String()
		case "Story":
			r.Object(func(k string) {
				switch k {
				case "Claim":
					h.Story.Claim = r.String()
				case "Text":
					h.Story.Text = r.String()
				default:
					r.Skip()
				}
			})
		case "Spoken":
			h.Spoken = r.String()
		default:
			r.Skip()
		}
	})
}

func (c *Check) read(r *jsonread.Reader) {
	r.Object(func(k string) {
		switch k {
		case "ID":
			c.ID = r.String()
		case "Invariant":
			c.Invariant = r.Bool()
		case "Pass":
			c.Pass = r.Bool()
		case "Recording":
			c.Recording = r.String()
		case "Metric":
			c.Metric = r.String()
		case "Summary":
			c.Summary = r.String()
		case "Line":
			c.Line = r.String()
		case "Formula":
			c.Formula = r.String()
		case "Substituted":
			c.Substituted = r.String()
		case "Want":
			c.Want = r.String()
		case "Got":
			c.Got = r.String()
		case "Tolerance":
			c.Tolerance = r.String()
		default:
			r.Skip()
		}
	})
}
