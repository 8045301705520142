// Package article is the explorable article at /article, its figures and
// the embeds at /embed.
//
// The article's prose is article.txt (text.go reads it): plain paragraphs
// with named slots for the numbers the simulator computes, conditional
// sentences bound to claims checked against the simulator (claims.go), and
// adjustable numbers (adjust.go) that the reader drags or steps with the
// keyboard, after which every number, sentence and figure of that section
// follows. The reader's values live in the article's URL, under the keys
// address.ArticleKeys lists.
//
// It may import go-app, sim, sim/sweep, sim/window, app/address, app/ui,
// app/units, app/view, app/compute, app/charts, app/anim and app/jsonread;
// nothing imports it but the program's routes and its tests.
//
// # The article
//
// Every number in the article's text is computed by the simulator and
// carries data-metric, data-ns or data-value, and data-query; a test fails
// if a digit is ever typed into its prose. Its figures are the live charts,
// each with a link that opens the visualiser on the same query, and the page
// is generated with its numbers and figures, so they are there before any
// script runs; the browser takes them over when they are for its address
// (takeover.go: data-taken on main) rather than computing them again, and
// draws a figure again only when its column is not the width the generator
// drew it for (a phone's) or the reader's colour scheme is dark.
//
// An adjustable number (data-adjust="<field>", a spin button with its
// value, range and unit) changes with the arrow keys (Page Up and Page Down
// for three steps, Home and End for the ends) or a sideways drag, and every
// number, sentence and figure of its section follows. The reader's values go
// in the URL as <section>.<field>, such as
// /article/?closed.stall=320ms&schedule.rate=8000, read by the rule of
// sim/QUERY.md; each section has a reset. A sentence that holds only for
// some values is bound to a claim checked against the simulator
// (claims.go): when a value leaves the claim's regime, the article says what
// holds instead.
//
// # Embeds
//
// /embed/?figure=<figure>&<query> shows one figure with no page chrome:
// spectrum, distribution, latency-time, queue-depth, or animation (anim=K
// picks stall K, counted from 0, and anim_t=1.6s the moment). Each embed
// has a title and a heading of its own and fits a 660×420 frame; its caption
// and data open below the chart. It tells the page around it how tall it is
// with a message {type: "omission:height", height, href}; the README's
// script lets the frame follow. Its message lists each invalid field as the
// visualiser words it, and a figure it does not know is refused with the
// value quoted and the figures allowed (figure: "pie" is not allowed:
// allowed spectrum, …).
package article
