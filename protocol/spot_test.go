package protocol

import (
	"math"
	"testing"
)

func TestParseSpot(t *testing.T) {
	for _, c := range []struct {
		in      string
		percent bool
		want    Spot
		bad     bool
	}{
		{in: "120,80", want: Spot{X: 120, Y: 80}},
		{in: " 1.5 , 2 ", want: Spot{X: 1.5, Y: 2}},
		{in: "40%,60%", percent: true, want: Spot{X: 40, Y: 60, Percent: true}},
		{in: "40%,60%", bad: true},
		{in: "40%,60", percent: true, bad: true},
		{in: "40", bad: true},
		{in: "a,b", bad: true},
	} {
		got, err := ParseSpot(c.in, c.percent)
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("ParseSpot(%q, %v) = %+v, %v", c.in, c.percent, got, err)
		}
	}
	for _, s := range []Spot{{X: -1, Y: 0}, {X: 0, Y: math.NaN()}, {X: 101, Y: 5, Percent: true}, {X: math.Inf(1), Y: 0}} {
		if err := s.Check("the point"); err == nil || err.(*Error).Code != CodeBadRequest {
			t.Errorf("Check(%+v) = %v, want bad_request", s, err)
		}
	}
	if err := (Spot{X: 100, Y: 0, Percent: true}).Check("the point"); err != nil {
		t.Errorf("100%%,0%%: %v", err)
	}
}
