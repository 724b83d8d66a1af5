package drawn_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// box is the width and height a drawing's or canvas's line says (box=WxH).
func box(t *testing.T, e apptest.El) (float64, float64) {
	t.Helper()
	m := regexp.MustCompile(`box=([0-9]+)x([0-9]+)`).FindStringSubmatch(e.Rest)
	if m == nil {
		t.Fatalf("no box= on %+v", e)
	}
	w, _ := strconv.Atoi(m[1])
	h, _ := strconv.Atoi(m[2])
	return float64(w), float64(h)
}
