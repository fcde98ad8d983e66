#ifndef CIDENTITYFLOWPINNEDTLS_H
#define CIDENTITYFLOWPINNEDTLS_H

#include <stddef.h>

/// One HTTP exchange over a connection whose server public key is checked against pins before
/// any request byte is sent: libcurl's CURLOPT_PINNEDPUBLICKEY, in the libcurl that
/// FoundationNetworking itself loads on Linux (found with dlopen, so nothing is linked at build
/// time). On Apple platforms the functions compile and report "unavailable": URLSession's
/// server trust evaluation does the check there.

/// What the caller asks for. Strings are NUL-terminated UTF-8; the struct only borrows them.
typedef struct ifp_request {
    const char *url;
    const char *method;
    /// `count` header lines, each "Name: value".
    const char *const *headers;
    size_t header_count;
    const void *body;
    size_t body_length;
    /// libcurl's pin list: "sha256//<base64>;sha256//<base64>...". Never NULL: this path is for pinned hosts only.
    const char *pins;
    /// A PEM file of trusted certificate authorities instead of the system's, or NULL (tests only).
    const char *ca_file;
    /// Whole-exchange deadline, in milliseconds.
    long timeout_ms;
    /// The largest body kept; a larger one ends the transfer with IFP_BODY_TOO_LARGE.
    size_t max_body;
    /// Tests only, else NULL: the name of one libcurl option ("PINNEDPUBLICKEY", "CAINFO",
    /// "PROTOCOLS", "FOLLOWLOCATION", ...) whose setting fails as in a libcurl built without it.
    const char *refused_option;
} ifp_request;

/// What came back. Free with ifp_response_free.
typedef struct ifp_response {
    /// 0 on success, else libcurl's CURLcode (90 = the pinned public key did not match), or one of
    /// the IFP_ codes below.
    int code;
    long status;
    unsigned char *body;
    size_t body_length;
    /// The final answer's header block ("Name: value\r\n" lines, status line first).
    char *headers;
    size_t headers_length;
    /// libcurl's error text for `code`.
    char error[256];
} ifp_response;

/// The transfer was cancelled through ifp_transfer_cancel.
#define IFP_CANCELLED (-1)
/// The body exceeded max_body.
#define IFP_BODY_TOO_LARGE (-2)
/// libcurl, or one of its functions, could not be found.
#define IFP_UNAVAILABLE (-3)
/// Out of memory.
#define IFP_NO_MEMORY (-4)
/// libcurl refused one of the transfer's options (the pin, the CA file, the protocols, the
/// redirect rule, ...): nothing was sent. `error` names the option.
#define IFP_OPTION_REFUSED (-5)
/// libcurl's code for a public key that matches no pin.
#define IFP_PIN_MISMATCH 90

/// A transfer's cancellation flag, shared by the thread that performs it and the one that cancels it.
typedef struct ifp_transfer ifp_transfer;

/// 1 when libcurl with public key pinning can be used here, else 0.
int ifp_available(void);

/// A new transfer handle, or NULL when out of memory.
ifp_transfer *ifp_transfer_new(void);
/// Asks the transfer to stop; safe from any thread, before, during or after ifp_transfer_perform.
void ifp_transfer_cancel(ifp_transfer *transfer);
/// Performs the exchange (blocking). Fills `response`, which the caller frees with ifp_response_free.
void ifp_transfer_perform(ifp_transfer *transfer, const ifp_request *request, ifp_response *response);
/// Frees the handle (after ifp_transfer_perform returned).
void ifp_transfer_free(ifp_transfer *transfer);
/// Frees the body and headers of a response.
void ifp_response_free(ifp_response *response);

#endif
