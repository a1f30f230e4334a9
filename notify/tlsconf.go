package notify

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"notifio/internal/model"
)

// CertFingerprint is the SHA-256 fingerprint of a certificate's DER bytes, as
// lower-case hex with colons: the form shown to the user and accepted by
// Config.PinnedCertSHA256.
func CertFingerprint(cert *x509.Certificate) string {
	sum := sha256.Sum256(cert.Raw)
	return formatFingerprint(sum[:])
}

func formatFingerprint(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = hex.EncodeToString([]byte{c})
	}
	return strings.Join(parts, ":")
}

// PinMismatchError means the server presented a certificate other than the pinned
// one. It is never retried: either the bridge got a new certificate (update the
// pin) or something is intercepting the connection.
type PinMismatchError struct {
	Got, Want string // fingerprints
}

func (e *PinMismatchError) Error() string {
	return fmt.Sprintf("the server's certificate (SHA-256 %s) is not the pinned one (%s)", e.Got, e.Want)
}

// errNoPeerCert is a handshake without a certificate, which a pinned connection refuses.
var errNoPeerCert = errors.New("the server presented no certificate")

// tlsConfig builds the client TLS configuration for cfg. Without a pin the
// system's roots verify the server's name as usual. With a pin, exactly the pinned
// certificate is accepted: the default chain verification is replaced (that is
// the only reason InsecureSkipVerify is set) by VerifyConnection, which compares
// the leaf's fingerprint in constant time and refuses everything else.
func tlsConfig(cfg model.Config) (*tls.Config, error) {
	host := strings.Trim(model.NormalizeHost(cfg.Host), "[]")
	tc := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if cfg.PinnedCertSHA256 == "" {
		return tc, nil
	}
	want, err := model.ParseFingerprint(cfg.PinnedCertSHA256)
	if err != nil {
		return nil, &model.FieldError{Field: "pinned_cert_sha256", Problem: "The pinned certificate fingerprint must be 64 hex digits (SHA-256)."}
	}
	tc.InsecureSkipVerify = true // replaced by the pin check below, never used without it
	tc.VerifyConnection = func(cs tls.ConnectionState) error {
		return checkPin(cs, want)
	}
	return tc, nil
}

func checkPin(cs tls.ConnectionState, want []byte) error {
	if len(cs.PeerCertificates) == 0 {
		return errNoPeerCert
	}
	leaf := cs.PeerCertificates[0]
	got := sha256.Sum256(leaf.Raw)
	if subtle.ConstantTimeCompare(got[:], want) != 1 {
		return &PinMismatchError{Got: formatFingerprint(got[:]), Want: formatFingerprint(want)}
	}
	return nil
}

// untrustedCertFingerprint returns the fingerprint of the certificate that failed
// verification, if err is a certificate verification failure, so that the hint can
// offer it for pinning.
func untrustedCertFingerprint(err error) (string, bool) {
	var cve *tls.CertificateVerificationError
	if errors.As(err, &cve) && len(cve.UnverifiedCertificates) > 0 {
		return CertFingerprint(cve.UnverifiedCertificates[0]), true
	}
	var uae x509.UnknownAuthorityError
	if errors.As(err, &uae) && uae.Cert != nil {
		return CertFingerprint(uae.Cert), true
	}
	var he x509.HostnameError
	if errors.As(err, &he) && he.Certificate != nil {
		return CertFingerprint(he.Certificate), true
	}
	return "", false
}
