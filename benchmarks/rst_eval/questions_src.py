"""The questions of the reStructuredText set, written by hand against six pages of
Flask's documentation in docs/ (Sphinx sources: configuration values, the API's
signals and the templates' context as object directives, ``.. py:data::``, ``..
data::``; a quick start and a security page of prose). Each question's evidence is
text exactly as the reader extracts it (found once, or first after ``after``); an
evidence of several lines is given line by line. The questions ask what a Flask user
would ask, most in their own words rather than by a setting's name.

Tags: object (the evidence is in a Sphinx object's description), prose.
"""

TAGS = {"object", "prose"}

Q = dict

C = "config.rst"
T = "templating.rst"
A = "api.rst"
QS = "quickstart.rst"

QUESTIONS = [
    # -- configuration values ------------------------------------------------------------
    Q(doc=C, question="What happens to exceptions when testing mode is enabled?",
      evidence=["Enable testing mode. Exceptions are propagated rather than handled by",
                "the app's error handlers."], tags=["object"]),
    Q(doc=C, question="How can a missing form key raise an exception instead of returning a "
                      "400 Bad Request page?",
      evidence=["Trying to access a key that doesn't exist from request dicts like ``args``",
                "and ``form`` will return a 400 Bad Request error page. Enable this to treat",
                "the error as an unhandled exception instead"], tags=["object"]),
    Q(doc=C, question="How do I generate a good secret key?",
      evidence=["$ python -c 'import secrets; print(secrets.token_hex())'"], tags=["object"]),
    Q(doc=C, question="How can I rotate secret keys without invalidating active sessions?",
      evidence=["A list of old secret keys that can still be used for unsigning. This allows",
                "a project to implement key rotation without invalidating active sessions or"],
      tags=["object"]),
    Q(doc=C, question="In which order should old secret keys be listed?",
      evidence=["Order should not matter, but the default implementation will test the last",
                "key in the list first, so it might make sense to order oldest to newest."],
      tags=["object"]),
    Q(doc=C, question="What is the session cookie called by default?",
      evidence=["Default: ``'session'``"], tags=["object"]),
    Q(doc=C, question="Is it more secure to leave the session cookie's domain unset?",
      evidence=["Not setting this value is more restricted and secure than setting it."],
      tags=["object"]),
    Q(doc=C, question="How do I keep JavaScript from reading the session cookie?",
      evidence=['Browsers will not allow JavaScript access to cookies marked as "HTTP only"'],
      tags=["object"]),
    Q(doc=C, question="How do I make the browser send the session cookie only over HTTPS?",
      evidence=["Browsers will only send cookies with requests over HTTPS if the cookie is",
                'marked "secure".'], tags=["object"]),
    Q(doc=C, question="Why would I mark my cookies partitioned?",
      evidence=["Browsers are beginning to disallow non-partitioned third party cookies, so",
                "you need to mark your cookies partitioned if you expect them to work in such",
                "embedded situations."], tags=["object"]),
    Q(doc=C, question="Which values can the SameSite setting of the session cookie take?",
      evidence=["be set to ``'Lax'`` (recommended) or ``'Strict'``."], tags=["object"]),
    Q(doc=C, question="How long does a permanent session last by default?",
      evidence=["Default: ``timedelta(days=31)`` (``2678400`` seconds)"], tags=["object"]),
    Q(doc=C, question="Can I stop Flask from sending the session cookie with every response?",
      evidence=["Control whether the cookie is sent with every response when",
                "``session.permanent`` is true. Sending the cookie every time (the default)",
                "can more reliably keep the session from expiring, but uses more bandwidth."],
      tags=["object"]),
    Q(doc=C, question="How can Apache serve files for my app instead of Flask?",
      evidence=["When serving files, set the ``X-Sendfile`` header instead of serving the",
                "data with Flask. Some web servers, such as Apache, recognize this and serve"],
      tags=["object"]),
    Q(doc=C, question="How do I set how long browsers cache the files my app sends?",
      evidence=["When serving files, set the cache control max age to this number of",
                "seconds. Can be a :class:`datetime.timedelta` or an ``int``."],
      tags=["object"]),
    Q(doc=C, question="How do I reject requests for host names my app does not serve?",
      evidence=["Validate :attr:`.Request.host` and other attributes that use it against",
                "these trusted values. Raise a :exc:`~werkzeug.exceptions.SecurityError` if",
                "the host is invalid, which results in a 400 error."], tags=["object"]),
    Q(doc=C, question="When must SERVER_NAME be set?",
      evidence=["Must be set if ``subdomain_matching`` is enabled, to be able to extract the",
                "Must be set for ``url_for`` to generate external URLs outside of a"],
      tags=["object"]),
    Q(doc=C, question="How do I tell Flask which URL path the application is mounted under?",
      evidence=["Inform the application what path it is mounted under by the application /"],
      tags=["object"]),
    Q(doc=C, question="How do I limit how many bytes of a request body are read?",
      evidence=["The maximum number of bytes that will be read during this request. If",
                "this limit is exceeded, a 413 :exc:`~werkzeug.exceptions.RequestEntityTooLarge`"],
      tags=["object"]),
    Q(doc=C, question="What is the default limit on the size of a non-file form field?",
      evidence=["Default: ``500_000``"], tags=["object"]),
    Q(doc=C, question="How many fields may a multipart form have by default?",
      evidence=["Default: ``1_000``"], tags=["object"]),
    Q(doc=C, question="How can I find out why the wrong template file was loaded?",
      evidence=["Log debugging information tracing how a template file was loaded. This can",
                "be useful to figure out why a template was not loaded or the wrong file"],
      tags=["object"]),
    Q(doc=C, question="What does Flask do about cookies that are too large?",
      evidence=["Warn if cookie headers are larger than this many bytes. Defaults to",
                "``4093``. Larger cookies may be silently ignored by browsers. Set to"],
      tags=["object"]),
    Q(doc=C, question="How do I turn off the automatic OPTIONS responses?",
      evidence=["Set to ``False`` to disable the automatic addition of OPTIONS"],
      tags=["object"]),
    # -- the templates' standard context -----------------------------------------------
    Q(doc=T, question="Can a template use the session when it is rendered without a request?",
      evidence=["The current session object (:class:`flask.session`).  This variable",
                "is unavailable if the template was rendered without an active request"],
      tags=["object"]),
    Q(doc=T, question="Is the config object available in imported templates?",
      evidence=["This is now always available, even in imported templates."], tags=["object"]),
    # -- signals -------------------------------------------------------------------------
    Q(doc=A, question="Which signal is sent just before the response goes to the client?",
      evidence=["This signal is sent right before the response is sent to the client."],
      tags=["object"]),
    Q(doc=A, question="Is got_request_exception sent for HTTP exceptions?",
      evidence=["This signal is not sent for",
                ":exc:`~werkzeug.exceptions.HTTPException`, or other exceptions that",
                "have error handlers registered, unless the exception was raised from"],
      tags=["object"]),
    Q(doc=A, question="Which signal can I use to close a database connection when a request "
                      "ends, even after an error?",
      evidence=["This signal is sent when the request is tearing down. This is always",
                "called, even if an exception is caused."],
      after="This signal is sent when the request is tearing down.", tags=["object"]),
    Q(doc=A, question="Is there a signal sent before a template is rendered?",
      evidence=["This signal is sent before template rendering process."], tags=["object"]),
    # -- prose around them ---------------------------------------------------------------
    Q(doc=QS, question="How do I start the development server for hello.py?",
      evidence=["$ flask --app hello run"], after="To run the application, use the",
      tags=["prose"]),
    Q(doc=QS, question="How do I build the URL of a static file?",
      evidence=["url_for('static', filename='style.css')"], tags=["prose"]),
    Q(doc=QS, question="How do I stop a request early with a 401 error?",
      evidence=["abort(401)"], tags=["prose"]),
]
