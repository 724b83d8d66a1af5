package protocol

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Spot is a point inside an element's box: X and Y in CSS pixels from its
// top-left corner, or, with Percent, in percent of its width and height.
// The page refuses a spot outside the box (docs/drawings.md, "Drawings
// and canvases").
type Spot struct {
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Percent bool    `json:"percent,omitempty"`
}

// String is the spot as the command line writes it: "120,80" or "40%,60%".
func (s Spot) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	if s.Percent {
		return f(s.X) + "%," + f(s.Y) + "%"
	}
	return f(s.X) + "," + f(s.Y)
}

// Check refuses a spot no box holds: a coordinate that is not a finite
// number, negative, or a percentage over 100.
func (s Spot) Check(what string) error {
	for _, v := range []float64{s.X, s.Y} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (s.Percent && v > 100) {
			limit := "0 or more CSS pixels from the element's top-left corner"
			if s.Percent {
				limit = "0% to 100% of the element's width and height"
			}
			return Errorf(CodeBadRequest, BoundaryPayload, "give X,Y as "+limit, "%s %s is outside the element", what, s)
		}
	}
	return nil
}

// ParseSpot reads "X,Y" (CSS pixels) or "X%,Y%" (percent of the box); a
// percentage needs both coordinates in percent.
func ParseSpot(text string, percentOK bool) (Spot, error) {
	xs, ys, ok := strings.Cut(strings.TrimSpace(text), ",")
	if !ok {
		return Spot{}, fmt.Errorf("%q is not X,Y", text)
	}
	xs, ys = strings.TrimSpace(xs), strings.TrimSpace(ys)
	px, py := strings.HasSuffix(xs, "%"), strings.HasSuffix(ys, "%")
	if px != py {
		return Spot{}, fmt.Errorf("%q mixes pixels and percent: write both as pixels or both as percent", text)
	}
	if px && !percentOK {
		return Spot{}, fmt.Errorf("%q: give CSS pixels, not percent", text)
	}
	x, err1 := strconv.ParseFloat(strings.TrimSuffix(xs, "%"), 64)
	y, err2 := strconv.ParseFloat(strings.TrimSuffix(ys, "%"), 64)
	if err1 != nil || err2 != nil {
		return Spot{}, fmt.Errorf("%q is not two numbers X,Y", text)
	}
	return Spot{X: x, Y: y, Percent: px}, nil
}
