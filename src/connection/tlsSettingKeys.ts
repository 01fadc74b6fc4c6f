// Apart from tlsSettings.ts, whose reading of certificate files loads with the first request, not at activation.
/** The settings that change how certificates are trusted and presented (the client is rebuilt when they change). */
export const TLS_SETTINGS = ['promptreel.tls', 'http.systemCertificates'] as const;

export const CLIENT_CERTIFICATE_PASSPHRASE_SECRET = 'promptreel.tls.clientCertificatePassphrase';
