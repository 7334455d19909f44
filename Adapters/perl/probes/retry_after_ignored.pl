#!/usr/bin/perl
# Claim: Retry-After is not read (nothing in LWP::Authen::OAuth2 reads it: ServiceProvider.pm
# construct_tokens looks only at the body): after a refresh answered 429 or 503 with
# "Retry-After: 30", the next call refreshes at once.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my @answers = (
    json_response(429, 'slow down', 'Retry-After' => 30),
    json_response(200, { access_token => 'at-2', token_type => 'Bearer', expires_in => 3600 }),
    json_response(503, 'busy', 'Retry-After' => 30),
    json_response(200, { access_token => 'at-3', token_type => 'Bearer', expires_in => 3600 }),
);
my $server = ProbeServer->start(sub {
    my ($request) = @_;
    return $request->uri->path eq '/token' ? shift(@answers) : json_response(200, { ok => 1 });
});

my $at_once = 0;
for my $status (429, 503) {
    my $oauth2 = oauth2($server->url, token_string => saved_token(age => 3700));
    eval { $oauth2->get($server->url . '/resource') };
    (my $error = $@) =~ s/\n+/ | /g;
    print "a refresh answered $status with Retry-After: 30: died with: $error\n";
    my $start = time();
    eval { $oauth2->get($server->url . '/resource') };
    my $refreshed = ($oauth2->access_token->{access_token} // '') ne 'at-1';
    print "  the next call, ", time() - $start, " s later: ", ($refreshed ? 'refreshed at once' : 'did not refresh'), "\n";
    $at_once++ if $refreshed and time() - $start < 30;
}
$server->stop;
verdict($at_once == 2,
    'Retry-After is ignored: the next call after a 429 or 503 with Retry-After: 30 refreshes at once',
    "only $at_once of 2 calls refreshed at once");
