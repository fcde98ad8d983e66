// libcurl with CURLOPT_PINNEDPUBLICKEY, reached through dlopen/dlsym: see CIdentityFlowPinnedTLS.h.
//
// libcurl's ABI numbers are stable (curl.h: CURLOPT(name, type, number) = type base + number);
// the ones used here are written out because no curl header is needed to build the package.
#include "CIdentityFlowPinnedTLS.h"

#include <stdlib.h>
#include <string.h>

#if defined(__APPLE__) || defined(_WIN32)

int ifp_available(void) { return 0; }
ifp_transfer *ifp_transfer_new(void) { return NULL; }
void ifp_transfer_cancel(ifp_transfer *transfer) { (void)transfer; }
void ifp_transfer_perform(ifp_transfer *transfer, const ifp_request *request, ifp_response *response) {
    (void)transfer;
    (void)request;
    memset(response, 0, sizeof *response);
    response->code = IFP_UNAVAILABLE;
}
void ifp_transfer_free(ifp_transfer *transfer) { (void)transfer; }
void ifp_response_free(ifp_response *response) { (void)response; }

#else

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011,
    OPT_POSTFIELDS = 10015, OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_CUSTOMREQUEST = 10036,
    OPT_NOPROGRESS = 43, OPT_NOBODY = 44, OPT_POST = 47, OPT_FOLLOWLOCATION = 52, OPT_XFERINFODATA = 10057,
    OPT_CAINFO = 10065, OPT_HEADERFUNCTION = 20079, OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155,
    OPT_PROTOCOLS = 181, OPT_XFERINFOFUNCTION = 20219, OPT_PINNEDPUBLICKEY = 10230,
    OPT_POSTFIELDSIZE_LARGE = 30120,
};
enum { INFO_RESPONSE_CODE = 0x200002, PROTO_HTTP = 1, PROTO_HTTPS = 2, GLOBAL_DEFAULT = 3 };
enum { CURLE_OK = 0, CURLE_NOT_BUILT_IN = 4, CURLE_WRITE_ERROR = 23, CURLE_ABORTED_BY_CALLBACK = 42 };

typedef struct curl_slist curl_slist;
typedef void *(*easy_init_fn)(void);
typedef int (*easy_setopt_fn)(void *, int, ...);
typedef int (*easy_perform_fn)(void *);
typedef int (*easy_getinfo_fn)(void *, int, ...);
typedef void (*easy_cleanup_fn)(void *);
typedef curl_slist *(*slist_append_fn)(curl_slist *, const char *);
typedef void (*slist_free_fn)(curl_slist *);
typedef const char *(*strerror_fn)(int);
typedef int (*global_init_fn)(long);

static struct {
    int loaded;
    easy_init_fn easy_init;
    easy_setopt_fn easy_setopt;
    easy_perform_fn easy_perform;
    easy_getinfo_fn easy_getinfo;
    easy_cleanup_fn easy_cleanup;
    slist_append_fn slist_append;
    slist_free_fn slist_free;
    strerror_fn easy_strerror;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    // FoundationNetworking has loaded libcurl already; RTLD_NOLOAD finds that copy first.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD);
    if (!library) library = dlopen("libcurl.so.4", RTLD_NOW);
    if (!library) library = dlopen("libcurl.so", RTLD_NOW);
    if (!library) return;
    // libcurl 7.39 added CURLOPT_PINNEDPUBLICKEY; curl_easy_option_by_name (7.73) shows it is recent enough.
    if (!dlsym(library, "curl_easy_option_by_name")) return;
    global_init_fn global_init = (global_init_fn)dlsym(library, "curl_global_init");
    curl.easy_init = (easy_init_fn)dlsym(library, "curl_easy_init");
    curl.easy_setopt = (easy_setopt_fn)dlsym(library, "curl_easy_setopt");
    curl.easy_perform = (easy_perform_fn)dlsym(library, "curl_easy_perform");
    curl.easy_getinfo = (easy_getinfo_fn)dlsym(library, "curl_easy_getinfo");
    curl.easy_cleanup = (easy_cleanup_fn)dlsym(library, "curl_easy_cleanup");
    curl.slist_append = (slist_append_fn)dlsym(library, "curl_slist_append");
    curl.slist_free = (slist_free_fn)dlsym(library, "curl_slist_free_all");
    curl.easy_strerror = (strerror_fn)dlsym(library, "curl_easy_strerror");
    if (!global_init || !curl.easy_init || !curl.easy_setopt || !curl.easy_perform || !curl.easy_getinfo ||
        !curl.easy_cleanup || !curl.slist_append || !curl.slist_free || !curl.easy_strerror)
        return;
    if (global_init(GLOBAL_DEFAULT) != CURLE_OK) return;
    curl.loaded = 1;
}

int ifp_available(void) {
    pthread_once(&load_once, load);
    return curl.loaded;
}

struct ifp_transfer {
    atomic_int cancelled;
};

ifp_transfer *ifp_transfer_new(void) {
    ifp_transfer *transfer = calloc(1, sizeof *transfer);
    if (transfer) atomic_init(&transfer->cancelled, 0);
    return transfer;
}

void ifp_transfer_cancel(ifp_transfer *transfer) { atomic_store(&transfer->cancelled, 1); }

void ifp_transfer_free(ifp_transfer *transfer) { free(transfer); }

void ifp_response_free(ifp_response *response) {
    free(response->body);
    free(response->headers);
    response->body = NULL;
    response->headers = NULL;
}

typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
} buffer;

static int append(buffer *buffer, const void *bytes, size_t count) {
    if (buffer->length + count + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1024;
        while (capacity < buffer->length + count + 1) capacity *= 2;
        unsigned char *grown = realloc(buffer->data, capacity);
        if (!grown) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length += count;
    buffer->data[buffer->length] = 0;
    return 1;
}

typedef struct {
    ifp_transfer *transfer;
    buffer body;
    buffer headers;
    size_t max_body;
    int failure;
} context;

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    context *context = user;
    size_t bytes = size * count;
    if (context->body.length + bytes > context->max_body) {
        context->failure = IFP_BODY_TOO_LARGE;
        return 0;
    }
    if (!append(&context->body, data, bytes)) {
        context->failure = IFP_NO_MEMORY;
        return 0;
    }
    return bytes;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    context *context = user;
    size_t bytes = size * count;
    // A new status line (after a 100 Continue, say) starts the final answer's block again.
    if (bytes >= 5 && memcmp(data, "HTTP/", 5) == 0) context->headers.length = 0;
    if (context->headers.length + bytes > 256 * 1024) {
        context->failure = IFP_BODY_TOO_LARGE;
        return 0;
    }
    if (!append(&context->headers, data, bytes)) {
        context->failure = IFP_NO_MEMORY;
        return 0;
    }
    return bytes;
}

static int on_progress(void *user, long long dltotal, long long dlnow, long long ultotal, long long ulnow) {
    (void)dltotal;
    (void)dlnow;
    (void)ultotal;
    (void)ulnow;
    context *context = user;
    return atomic_load(&context->transfer->cancelled) ? 1 : 0;
}

/// Whether the request asks (tests only) that setting `option` fail as in a libcurl without it.
static int is_refused(const ifp_request *request, const char *option) {
    return request->refused_option != NULL && strcmp(request->refused_option, option) == 0;
}

void ifp_transfer_perform(ifp_transfer *transfer, const ifp_request *request, ifp_response *response) {
    memset(response, 0, sizeof *response);
    if (!ifp_available()) {
        response->code = IFP_UNAVAILABLE;
        snprintf(response->error, sizeof response->error, "libcurl with public key pinning was not found");
        return;
    }
    if (atomic_load(&transfer->cancelled)) {
        response->code = IFP_CANCELLED;
        return;
    }
    void *easy = curl.easy_init();
    if (!easy) {
        response->code = IFP_NO_MEMORY;
        return;
    }
    context context = {.transfer = transfer, .max_body = request->max_body};
    curl_slist *headers = NULL;
    for (size_t index = 0; index < request->header_count; index++) {
        curl_slist *appended = curl.slist_append(headers, request->headers[index]);
        if (!appended) {
            context.failure = IFP_NO_MEMORY;
            break;
        }
        headers = appended;
    }
    char error[256] = {0};
    int code = context.failure;
    // Every option is checked: a libcurl that cannot pin (CURLE_NOT_BUILT_IN for the pin) or
    // refuses the CA, protocol or redirect setting must not send anything.
#define SET(option, value)                                                                              \
    do {                                                                                                \
        if (code == 0) {                                                                                \
            int set = is_refused(request, #option) ? CURLE_NOT_BUILT_IN : curl.easy_setopt(easy, OPT_##option, value); \
            if (set != CURLE_OK) {                                                                    \
                code = IFP_OPTION_REFUSED;                                                              \
                snprintf(response->error, sizeof response->error, "libcurl refused CURLOPT_%s: %s", #option, \
                         curl.easy_strerror(set));                                                      \
            }                                                                                           \
        }                                                                                               \
    } while (0)
    if (code == 0) {
        SET(URL, request->url);
        SET(PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
        SET(PINNEDPUBLICKEY, request->pins);
        if (request->ca_file) SET(CAINFO, request->ca_file);
        SET(FOLLOWLOCATION, 0L);
        SET(NOSIGNAL, 1L);
        SET(TIMEOUT_MS, request->timeout_ms);
        SET(ERRORBUFFER, error);
        SET(HTTPHEADER, headers);
        SET(WRITEFUNCTION, on_body);
        SET(WRITEDATA, &context);
        SET(HEADERFUNCTION, on_header);
        SET(HEADERDATA, &context);
        SET(NOPROGRESS, 0L);
        SET(XFERINFOFUNCTION, on_progress);
        SET(XFERINFODATA, &context);
        if (strcmp(request->method, "HEAD") == 0) {
            SET(NOBODY, 1L);
        } else if (request->body || strcmp(request->method, "POST") == 0) {
            SET(POST, 1L);
            SET(POSTFIELDSIZE_LARGE, (long long)request->body_length);
            SET(POSTFIELDS, request->body ? request->body : "");
        }
        if (strcmp(request->method, "GET") != 0 && strcmp(request->method, "POST") != 0 && strcmp(request->method, "HEAD") != 0)
            SET(CUSTOMREQUEST, request->method);
    }
#undef SET
    if (code == 0) {
        code = curl.easy_perform(easy);
        long status = 0;
        curl.easy_getinfo(easy, INFO_RESPONSE_CODE, &status);
        response->status = status;
        if (code == CURLE_ABORTED_BY_CALLBACK && atomic_load(&transfer->cancelled)) code = IFP_CANCELLED;
        if (code == CURLE_WRITE_ERROR && context.failure != 0) code = context.failure;
        if (code > 0) snprintf(response->error, sizeof response->error, "%s", error[0] ? error : curl.easy_strerror(code));
    }
    curl.slist_free(headers);
    curl.easy_cleanup(easy);
    response->code = code;
    response->body = context.body.data;
    response->body_length = context.body.length;
    response->headers = (char *)context.headers.data;
    response->headers_length = context.headers.length;
}

#endif
