#!/usr/bin/perl
# Claim: after a 401 with invalid_token the library refreshes, but replays the call only when
# the new token expires strictly later than the rejected one (AccessToken.pm:90, comparing
# whole-second expires_in values). A token signed in and refreshed within the same second,
# both with expires_in 3600, is not replayed: the application gets the 401.
use strict;
use warnings;
use FindBin;
use Time::HiRes ();
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 verdict);

my $server = ProbeServer->start(sub {
    my ($request, $number) = @_;
    if ($request->uri->path eq '/token') {
        return json_response(200, { access_token => "at-$number", token_type => 'Bearer', expires_in => 3600, refresh_token => 'rt-1' });
    }
    return ($request->header('Authorization') // '') =~ /at-1$/
        ? json_response(401, { error => 'invalid_token' }, 'WWW-Authenticate' => 'Bearer error="invalid_token"')
        : json_response(200, { ok => 1 });
});

# The same second is what the claim is about: each attempt starts just after a second begins, so
# the sign-in, the call, the refresh and the replay have most of a second; try again (at most 5
# times, 5 s in all) if the clock ticked all the same, as it can on a loaded machine.
my ($status, $same_second);
for my $attempt (1 .. 5) {
    my $now = Time::HiRes::time();
    Time::HiRes::sleep(int($now) + 1.01 - $now);
    my $start = time();
    my $oauth2 = oauth2($server->url);
    $oauth2->request_tokens(code => 'code-1');
    my $response = $oauth2->get($server->url . '/resource');
    $same_second = time() == $start;
    $status = $response->code;
    print "attempt $attempt: the application got HTTP $status; the library now holds ", $oauth2->access_token->{access_token},
        ($same_second ? '' : ' (the clock ticked; again)'), "\n";
    last if $same_second;
}
$server->stop;
verdict($same_second && $status == 401,
    'after the 401 the library refreshed but did not replay the call: the new token does not expire later than the rejected one, and the 401 reaches the application',
    "the call was replayed or the clock kept ticking (status $status)");
