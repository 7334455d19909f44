#!/usr/bin/perl
# Claim: a token answered with expires_in -60 is expired on arrival (expires_time is
# create_time + (expires_in || 3600), AccessToken.pm:28-29, and -60 is true in Perl), so the
# library refreshes before every call (AccessToken.pm:80-84).
#   sign-in (the default): the sign-in and every refresh answer -60: two calls, two refreshes.
#   refresh: a restored session whose token has just expired (token_string, as an application
#            keeps it) is refreshed once by its first call; that refresh and every next one
#            answer -60, so the refreshed token is expired on arrival too, and each of the next
#            two calls refreshes again: three calls, three refreshes. A refresh response is read
#            by the same construct_tokens and AccessToken as the sign-in's (ServiceProvider.pm:
#            120-126, 294).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my $mode = $ARGV[0] // 'sign-in';
die "usage: $0 [sign-in|refresh]\n" unless $mode =~ /^(sign-in|refresh)\z/;

my $issued = 1;    # at-1 is the restored one; the server numbers the ones it issues from at-2
my $server = ProbeServer->start(sub {
    my ($request) = @_;
    return json_response(200, { access_token => 'at-' . ++$issued, token_type => 'Bearer', expires_in => -60, refresh_token => 'rt-1' })
        if $request->uri->path eq '/token';
    return json_response(200, { ok => 1 });
});

my $oauth2;
my @calls;
if ($mode eq 'sign-in') {
    $oauth2 = oauth2($server->url);
    $oauth2->request_tokens(code => 'code-1');
    @calls = (1, 2);
}
else {
    # A one-hour token issued an hour and a second ago: expired, so the first call refreshes.
    $oauth2 = oauth2($server->url, token_string => saved_token(age => 3601));
    print "restored: at-1, expires_in 3600, issued 3601 s ago\n";
    @calls = (1, 2, 3);
}
my $held = $oauth2->access_token->{access_token};    # the token before the first call
my @tokens;
for my $call (@calls) {
    my $response = $oauth2->get($server->url . '/resource');
    push @tokens, $oauth2->access_token->{access_token};
    print "call $call went out with '", $response->request->header('Authorization'), "'; the token now expires in ",
        $oauth2->access_token->expires_in, " s\n";
}
$server->stop;

my %distinct = map { $_ => 1 } @tokens;
my $every_call_refreshed = !grep({ $_ eq $held } @tokens) && keys(%distinct) == @tokens;
verdict($every_call_refreshed,
    $mode eq 'sign-in'
        ? 'with expires_in -60 every call is preceded by a refresh'
        : 'a refresh answered expires_in -60 gives a token expired on arrival, so every call after it is preceded by another refresh (3 refreshes for 3 calls)',
    "a token was used without refreshing: held $held, then " . join(', ', @tokens));
