#!/usr/bin/perl
# Claim: when the HTTPS resource redirects to plain HTTP, the access token goes along in clear:
# the library sets Authorization on the request it hands LWP::UserAgent
# (AccessToken/Bearer.pm:15-16), and LWP::UserAgent 6.68 follows the redirect with a clone of
# that request, removing only Host and Cookie (LWP/UserAgent.pm:329), whatever the scheme.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Temp qw(tempdir);
use IO::Socket::SSL;
use IO::Socket::SSL::Utils qw(CERT_create PEM_cert2file PEM_key2file);
use LWP::UserAgent;
use ProbeServer qw(json_response oauth2 saved_token verdict);

# A CA of the probe's own and a certificate for 127.0.0.1 that it signed.
my $dir = tempdir(CLEANUP => 1);
my ($ca, $ca_key) = CERT_create(CA => 1, subject => { commonName => 'probe CA' });
my ($cert, $key) = CERT_create(issuer => [ $ca, $ca_key ], subject => { commonName => '127.0.0.1' },
    subjectAltNames => [ [ IP => '127.0.0.1' ] ]);
PEM_cert2file($ca, "$dir/ca.pem");
PEM_cert2file($cert, "$dir/cert.pem");
PEM_key2file($key, "$dir/key.pem");

my $plain = ProbeServer->start(sub { json_response(200, { ok => 1 }) });

# The HTTPS resource: one connection, one answer, a 302 to the plain-HTTP origin.
my $tls = IO::Socket::SSL->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0, ReuseAddr => 1,
    SSL_cert_file => "$dir/cert.pem", SSL_key_file => "$dir/key.pem") or die "cannot listen: $SSL_ERROR";
my $https = 'https://127.0.0.1:' . $tls->sockport;
my $pid = fork // die;
if ($pid == 0) {
    alarm 20;
    my $connection = $tls->accept or exit 1;
    my $head = '';
    while (defined(my $line = <$connection>)) { $head .= $line; last if $line eq "\r\n" }
    my ($request_line) = split /\r\n/, $head;
    my ($authorization) = $head =~ /^Authorization: (.*?)\r$/mi;
    print "  server $https #1: $request_line Authorization: ", $authorization // '(none)', "\n";
    print {$connection} "HTTP/1.1 302 Found\r\nLocation: " . $plain->url . "/resource\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    $connection->close;
    exit 0;
}
close $tls;

my $oauth2 = oauth2($https, token_string => saved_token(),
    user_agent => LWP::UserAgent->new(timeout => 10, ssl_opts => { verify_hostname => 1, SSL_ca_file => "$dir/ca.pem" }));
my $response = $oauth2->get("$https/resource");
my $carried = $response->request->header('Authorization') // '';
print 'the request to ', $response->request->uri, " carried Authorization: '$carried'\n";
waitpid $pid, 0;
$plain->stop;
verdict($response->previous && $response->request->uri =~ /^http:/ && $carried eq 'Bearer at-1',
    'the access token follows a redirect from the HTTPS resource to plain HTTP',
    "the plain-HTTP request carried '$carried'");
