package io.bindfirst.server.plugin;

/** When, in an operation's life on a worker, a plugin is called. */
public enum PluginPhase {
    /** First thing on the worker, before the request is checked; may stop the operation. */
    PRE_PARSE,
    /** After access checks, just before the backend is touched; may stop the operation. */
    PRE_OPERATION,
    /** After the backend work, before the response is sent; sees the result. */
    POST_OPERATION,
    /** After the response is sent; sees the result and the entry before and after. */
    POST_RESPONSE
}
