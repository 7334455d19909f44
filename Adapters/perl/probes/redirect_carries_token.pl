#!/usr/bin/perl
# Claim: when the resource redirects (302, 307, 308) to another origin, the access token goes
# along: the library sets Authorization on the request it hands LWP::UserAgent
# (AccessToken/Bearer.pm:15-16), and LWP::UserAgent 6.68 follows the redirect with a clone of
# that request, removing only Host and Cookie (LWP/UserAgent.pm:329). The same code path
# follows a redirect from https to plain http.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my $other = ProbeServer->start(sub { json_response(200, { ok => 1 }) });
my $server = ProbeServer->start(sub {
    my ($request, $number) = @_;
    my ($status) = $request->uri->path =~ m{/(\d+)$};
    return json_response($status, {}, Location => $other->url . '/resource');
});

my $leaks = 0;
for my $status (302, 307, 308) {
    my $oauth2 = oauth2($server->url, token_string => saved_token());
    my $response = $oauth2->get($server->url . "/redirect/$status");
    my $redirected = $response->previous;
    my $carried = $response->request->header('Authorization') // '';
    print "a $status to ", $other->url, ": the request there carried Authorization: '$carried'\n";
    $leaks++ if $redirected and $carried eq 'Bearer at-1';
}
$server->stop;
$other->stop;
verdict($leaks == 3,
    'the access token follows a 302, 307 and 308 redirect to another origin',
    "only $leaks of 3 redirects carried the token");
