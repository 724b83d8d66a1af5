package crx

import (
	"crypto/rand"
	"crypto/rsa"
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
	der, err := marshalPKCS8(key)
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
		k, err := parsePKCS8(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKey, err)
		}
		return k, nil
	case "RSA PRIVATE KEY":
		k, err := parsePKCS1(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKey, err)
		}
		return k, nil
	}
	return nil, fmt.Errorf("%w: PEM block %q", ErrKey, b.Type)
}
