package crx

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"strings"
	"testing"
)

// A key round-trips through each DER form, and a key that is not RSA is
// refused by name: grip signs with RSA alone (crx/der.go).
func TestDERRoundTripsAndRefusesOtherKeys(t *testing.T) {
	k := testKeys(t)[0]
	pub, err := PublicKeyDER(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := parsePublicKeyDER(pub); err != nil || !back.Equal(&k.PublicKey) {
		t.Errorf("parsePublicKeyDER = %v, %v", back, err)
	}
	priv, err := marshalPKCS8(k)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := parsePKCS8(priv); err != nil || !back.Equal(k) {
		t.Errorf("parsePKCS8 = %v, %v", back, err)
	}
	if back, err := parsePKCS1(x509.MarshalPKCS1PrivateKey(k)); err != nil || !back.Equal(k) {
		t.Errorf("parsePKCS1 = %v, %v", back, err)
	}

	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecPub, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	if _, err := parsePublicKeyDER(ecPub); err == nil || !strings.Contains(err.Error(), "not RSA") {
		t.Errorf("parsePublicKeyDER(an ECDSA key) = %v, want not RSA", err)
	}
	ecPriv, _ := x509.MarshalPKCS8PrivateKey(ec)
	if _, err := parsePKCS8(ecPriv); err == nil || !strings.Contains(err.Error(), "not RSA") {
		t.Errorf("parsePKCS8(an ECDSA key) = %v, want not RSA", err)
	}
	for _, bad := range [][]byte{nil, {0x30, 0x00}, pub[:len(pub)-1], append(append([]byte{}, pub...), 0), append(append([]byte{}, priv...), 0)} {
		if _, err := parsePublicKeyDER(bad); err == nil {
			t.Errorf("parsePublicKeyDER(%x…) took it", bad[:min(len(bad), 8)])
		}
		if _, err := parsePKCS8(bad); err == nil {
			t.Errorf("parsePKCS8(%x…) took it", bad[:min(len(bad), 8)])
		}
	}
}
