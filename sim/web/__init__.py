"""The local web page of ``thousand serve``: tap a hand on a phone, read the verdict.

:mod:`sim.web.app` is the app (Starlette, served by uvicorn): the page
(:mod:`views.advisor_page` in server mode), the class tables' quick answer and the
sampling advisor (:func:`sim.jobs.advise.advise`) behind a bounded queue on one worker
thread. Like the command line it sits above the jobs (``tests/test_layers.py``): it
builds a job's spec from a request, calls the job and answers; the command line's
``serve`` starts it, and nothing else imports it.
"""
