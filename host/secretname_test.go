package host

import (
	"regexp"
	"testing"
)

// secretNameRegexp is the rule written down apart from recorder.go's
// secretName, which reads it with Unicode's case folding (the long s ſ,
// the Kelvin sign K). A name it matches that isSecretName missed would put
// a secret into a recording: these tests hold the two equal, on a table
// and under fuzzing.
var secretNameRegexp = regexp.MustCompile(`(?i)pass(word|code|phrase)?\b|\bpin\b|one[- ]?time|\botp\b|2fa|secret|token|\bcvc\b|\bcvv\b|security code`)

// secretNameCases are field names, each with whether it is a secret's.
var secretNameCases = []struct {
	name   string
	secret bool
}{
	{"", false},
	{"Email", false},
	{"Password", true},
	{"password", true},
	{"PASSWORD", true},
	{"New password:", true},
	{"Pass", true},
	{"pass", true},
	{"Passcode", true},
	{"Passphrase", true},
	{"passwords", false}, // no boundary after any of pass, password
	{"Passenger", false},
	{"Passport number", false},
	{"bypass", true}, // pass needs a boundary after it only
	{"pass_word", false},
	{"pass2", false},
	{"pass-word", true},
	{"PIN", true},
	{"PIN code", true},
	{"Your pin:", true},
	{"Spinner", false},
	{"pins", false},
	{"pin_code", false},
	{"_pin", false},
	{"pin1", false},
	{"One-time code", true},
	{"one time code", true},
	{"onetime", true},
	{"one--time", false},
	{"one_time", false},
	{"OTP", true},
	{"otp:", true},
	{"Hotpot", false},
	{"2FA code", true},
	{"x2fax", true},
	{"Client secret", true},
	{"SECRETARY", true},
	{"API token", true},
	{"Tokens", true},
	{"CVC", true},
	{"CVV", true},
	{"cvv2", false},
	{"Security code", true},
	{"security  code", false},
	{"Security-code", false},
	// Unicode simple case folding: ſ (U+017F) is an s and K (U+212A, the
	// Kelvin sign) a k, but neither is a word character for \b.
	{"paſſword", true},
	{"PASſ", false}, // ends in ſ: no word character on either side of its end
	{"PASſ!", false},
	{"PASſx", true}, // x after ſ: a boundary
	{"PAſS", true},
	{"PAſSx", false},
	{"paſs", true},
	{"ſecret", true},
	{"toKen", true},
	{"to\u212Aen", true},
	{"passſ", true}, // ſ after pass is no word character: a boundary
	{"ſpin", true},  // nor before pin
	{"pinſ", true},
	{"\u212Apin\u212A", true},
	{"ſecurity code", true},
	{"passé", true},
	{"épin", true},
	{"ıpin", true},
	{"PİN", false}, // İ and ı fold to no i
	{"pın", false},
	{"pass\xff", true},
	{"\xffpin\xff", true},
	{"p\xffin", false},
	{"\xc5pin", true}, // a cut-off ſ
	{"pa\xc5\xbfs", true},
	{"\u0441ecret", false}, // a Cyrillic с
}

func TestIsSecretName(t *testing.T) {
	for _, c := range secretNameCases {
		if got := isSecretName(c.name); got != c.secret {
			t.Errorf("isSecretName(%q) = %v, want %v", c.name, got, c.secret)
		}
		checkSecretName(t, c.name)
	}
}

// TestIsSecretNameAmongPieces holds isSecretName equal to the regexp on
// every text of up to four pieces, each a part of a secret word, a
// character that is or is not a word character for \b, or a rune that
// folds to an ASCII letter: where words and boundaries meet.
func TestIsSecretNameAmongPieces(t *testing.T) {
	pieces := []string{
		"pass", "PASS", "paſ", "word", "code", "phrase", "pin", "PIN", "otp", "cvc", "cvv", "cv",
		"one", "time", "2fa", "secret", "to\u212Aen", "security", "s", "S", "ſ", "\u212A",
		"-", " ", "_", "x", "1", "é", "\xff", "\xc5",
	}
	var texts func(prefix string, n int)
	texts = func(prefix string, n int) {
		checkSecretName(t, prefix)
		if n == 0 {
			return
		}
		for _, p := range pieces {
			texts(prefix+p, n-1)
		}
	}
	texts("", 4)
}

// checkSecretName fails where isSecretName and the regexp disagree on s.
func checkSecretName(t *testing.T, s string) {
	t.Helper()
	if got, want := isSecretName(s), secretNameRegexp.MatchString(s); got != want {
		t.Errorf("isSecretName(%q) = %v, the regexp says %v", s, got, want)
	}
}

func FuzzIsSecretName(f *testing.F) {
	for _, c := range secretNameCases {
		f.Add(c.name)
	}
	f.Fuzz(checkSecretName)
}
