package crx

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
)

// KeyBits is the size of the RSA keys NewKey makes, as Chrome's own
// "Pack extension" does.
const KeyBits = 2048

// NewKey makes a signing key.
func NewKey() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, KeyBits) }

// MarshalKey returns key as a PKCS #8 PEM block ("PRIVATE KEY"), the form
// Chrome writes for --pack-extension and reads with --pack-extension-key.
func MarshalKey(key *rsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// ParseKey reads a PEM RSA private key, PKCS #8 or PKCS #1.
func ParseKey(data []byte) (*rsa.PrivateKey, error) {
	b, _ := pem.Decode(data)
	if b == nil {
		return nil, fmt.Errorf("%w: no PEM block", ErrKey)
	}
	switch b.Type {
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKey, err)
		}
		rk, ok := k.(*rsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("%w: a %T, want RSA", ErrKey, k)
		}
		return rk, nil
	case "RSA PRIVATE KEY":
		k, err := x509.ParsePKCS1PrivateKey(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKey, err)
		}
		return k, nil
	}
	return nil, fmt.Errorf("%w: PEM block %q", ErrKey, b.Type)
}
